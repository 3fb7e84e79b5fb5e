//! Entry point: panic hook, then mount the app.

fn main() {
    console_error_panic_hook::set_once();
    fluxlens::mount();
}
