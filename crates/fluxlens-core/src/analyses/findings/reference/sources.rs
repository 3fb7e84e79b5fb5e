//! Where the rules' facts come from: public repositories at pinned commits (so a link keeps
//! saying what it said when the rule was written) and the two field reports.

/// One source a rule rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Source {
    /// How the reference names it (`source-controller docs/spec/v1/ocirepositories.md`).
    pub label: &'static str,
    pub url: &'static str,
}

macro_rules! pinned {
    ($name:ident, $repo:literal, $commit:literal) => {
        /// A file of this repository at the pinned commit.
        macro_rules! $name {
            ($path:literal) => {
                $crate::analyses::findings::reference::sources::Source {
                    label: concat!($repo, " ", $path),
                    url: concat!("https://github.com/", $repo, "/blob/", $commit, "/", $path),
                }
            };
        }
    };
}

pinned!(
    fo,
    "controlplaneio-fluxcd/flux-operator",
    "17c6aeaddd8dacd5fbd4dd9e1bfe23a0a59df1fb"
);
pinned!(
    sc,
    "fluxcd/source-controller",
    "39b711b111fa906c3db0a424e252a5d12e48646d"
);
pinned!(
    kc,
    "fluxcd/kustomize-controller",
    "186fb3b29138ce82ff61ba1a9370b96a3dd598fe"
);
pinned!(
    nc,
    "fluxcd/notification-controller",
    "2e46958a67f3af0e3e755a4fcaf7397d5803725e"
);
pinned!(
    f2,
    "fluxcd/flux2",
    "da2d22d3690191a315822612085f424e4133b06a"
);
pinned!(
    dist,
    "controlplaneio-fluxcd/distribution",
    "8353f7a1cf75e2dba4733cfd9b12652ec0cdad81"
);
pinned!(
    hc,
    "fluxcd/helm-controller",
    "0f61a8607a62be64638f2f912d9487e653960a6e"
);
pub(crate) use {dist, f2, fo, hc, kc, nc, sc};

/// jfroy/flatops PR #2161: a staged move of a cluster's root source from Git to a signed OCI
/// artifact delivered through `FluxInstance.spec.sync`.
pub const FLATOPS_2161: Source = Source {
    label: "field report: jfroy/flatops PR #2161 (Git → signed OCI root)",
    url: "https://github.com/jfroy/flatops/pull/2161",
};

/// cozystack/cozystack PR #1641: moving between the Flux Operator and flux-aio, Flux
/// Enterprise, `flux migrate`.
pub const COZYSTACK_1641: Source = Source {
    label: "field report: cozystack/cozystack PR #1641 (operator ↔ flux-aio, Enterprise)",
    url: "https://github.com/cozystack/cozystack/pull/1641",
};
