//! The commands a drift finding offers, for the kind it is about: the Flux CLI's nouns, and the
//! Flux Operator CLI's for the operator's kinds.

use crate::model::ObjectKey;
use crate::wire::kind::Kind;

/// `flux <verb> <noun> <name> -n <namespace>` in backticks, or the operator CLI's for a
/// FluxInstance or ResourceSet; `None` for a kind neither CLI takes.
pub(super) fn flux(verb: &str, key: &ObjectKey) -> Option<String> {
    let (cli, noun) = match key.kind {
        Kind::Kustomization => ("flux", "ks"),
        Kind::HelmRelease => ("flux", "hr"),
        Kind::GitRepository => ("flux", "source git"),
        Kind::OciRepository => ("flux", "source oci"),
        Kind::HelmRepository => ("flux", "source helm"),
        Kind::Bucket => ("flux", "source bucket"),
        Kind::HelmChart => ("flux", "source chart"),
        Kind::Alert if verb != "reconcile" => ("flux", "alert"),
        Kind::Provider if verb != "reconcile" => ("flux", "alert-provider"),
        Kind::Receiver => ("flux", "receiver"),
        Kind::ImageRepository => ("flux", "image repository"),
        Kind::ImageUpdateAutomation => ("flux", "image update"),
        Kind::FluxInstance => ("flux-operator", "instance"),
        Kind::ResourceSet => ("flux-operator", "resourceset"),
        _ => return None,
    };
    Some(format!(
        "`{cli} {verb} {noun} {} -n {}`",
        key.name, key.namespace
    ))
}

/// "Reconcile X (`flux reconcile …`)", the command left out where no CLI takes the kind.
pub(super) fn act(verb: &str, key: &ObjectKey) -> String {
    let word = match verb {
        "reconcile" => "Reconcile",
        "resume" => "Resume",
        "delete" => "Delete",
        other => other,
    };
    match flux(verb, key) {
        Some(cmd) => format!("{word} {key} ({cmd})"),
        None => format!("{word} {key}"),
    }
}
