//! Tests over the whole rule set: no rule grades itself (revision 3, §0.3 roles), every rule
//! has a test that makes it fire, and the field reports' failure modes behind revision 3 are
//! caught on real-shaped data.

use super::testkit::{root_ks, run};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::findings::{Severity, evaluate_all, registry};
use crate::model::{Cluster, CrdAccess};
use crate::wire::FluxReport;

/// Every rule family's source, with its name.
const SOURCES: [(&str, &str); 13] = [
    ("dangling.rs", include_str!("dangling.rs")),
    ("ent.rs", include_str!("ent.rs")),
    ("mig_api.rs", include_str!("mig_api.rs")),
    ("mig_dist.rs", include_str!("mig_dist.rs")),
    ("mig_go.rs", include_str!("mig_go.rs")),
    ("mig_order.rs", include_str!("mig_order.rs")),
    ("mig_prune.rs", include_str!("mig_prune.rs")),
    ("sig_anonymous.rs", include_str!("sig_anonymous.rs")),
    ("sig_identity.rs", include_str!("sig_identity.rs")),
    ("sig_instance.rs", include_str!("sig_instance.rs")),
    ("sig_verdict.rs", include_str!("sig_verdict.rs")),
    ("mod.rs", include_str!("mod.rs")),
    ("coverage.rs", include_str!("coverage.rs")),
];

fn split(src: &str) -> (&str, &str) {
    let at = src.find("#[cfg(test)]").unwrap_or(src.len());
    src.split_at(at)
}

#[test]
fn no_rule_names_a_severity_outside_the_policy() {
    for (name, src) in SOURCES {
        let (code, _) = split(src);
        assert!(
            !code.contains("Severity::") && !code.contains("severity:"),
            "{name} grades a finding itself; say its Class and let the policy grade it"
        );
    }
}

/// Every scenario the simulator serves, as the loader would model it (its objects, CRDs and the
/// FluxInstance's events; the confirming read answered by the scenario itself).
fn scenarios() -> Vec<Cluster> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let path = entry.path();
        let read = |f: &str| std::fs::read_to_string(path.join(f)).ok();
        let (Some(report), Some(objects)) = (read("report.json"), read("objects.json")) else {
            continue;
        };
        let report: FluxReport = serde_json::from_str(&report).unwrap();
        let objects: Vec<crate::wire::ApiObject> = serde_json::from_str(&objects).unwrap();
        let crds = read("crds.json")
            .map(|t| CrdAccess::Known(serde_json::from_str(&t).unwrap()))
            .unwrap_or_default();
        let mut c = super::testkit::confirmed(Cluster::new(report, objects, crds));
        c.instance_events = read("events.json")
            .map(|t| serde_json::from_str(&t).unwrap())
            .unwrap_or_default();
        out.push(c);
    }
    out
}

/// Runs every registered rule over every scenario and every rule family's fail examples: each
/// must fire on at least one (#48: this test used to search the tests' text for the id).
#[test]
fn every_rule_fires_on_a_scenario_or_a_fail_example() {
    let mut corpus = scenarios();
    let examples = [
        fail_examples(),
        super::mig_go::tests::fail_examples(),
        super::mig_api::tests::fail_examples(),
        super::mig_dist::tests::fail_examples(),
        super::ent::tests::fail_examples(),
    ];
    for (rule, c) in examples.into_iter().flatten() {
        assert!(
            !run(&c, rule).is_empty(),
            "{rule} does not fire on its example"
        );
        corpus.push(c);
    }
    let fired: std::collections::BTreeSet<String> = corpus
        .iter()
        .flat_map(evaluate_all)
        .map(|f| f.rule)
        .collect();
    // A rule of a change landing has nothing to judge live: it fires in the order model's tests
    // (order/tests.rs, a child racing its unchanged parent) and the check's (tests/order.rs).
    let change_only = ["MIG-GO-17"];
    let silent: Vec<&str> = registry()
        .map(|r| r.id())
        .filter(|id| !fired.contains(*id) && !change_only.contains(id))
        .collect();
    assert!(
        silent.is_empty(),
        "no scenario or example makes {silent:?} fire"
    );
}

fn with_report(report: &str, objs: &[&str]) -> Cluster {
    let report: FluxReport = serde_json::from_str(report).unwrap();
    super::testkit::confirmed(Cluster::new(
        report,
        objs.iter().map(|s| serde_json::from_str(s).unwrap()),
        CrdAccess::Unknown,
    ))
}

const REPORT: &str = r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"version":"v2.8.3","managedBy":"flux-operator"},"sync":{"id":"kustomization/flux-system"},"components":[{"name":"source-controller","ready":true,"image":"ghcr.io/fluxcd/source-controller:v1.8.0@sha256:aa"}]}}"#;
const INSTANCE_OCI: &str = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"OCIRepository"}},"status":{"lastAppliedRevision":"v2.8.3@sha256:ab"}}"#;
const GIT_ROOT: &str = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"True"}],"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}}"#;

/// The rules that had no test firing them (#29), and the new ones of revision 3.
/// Clusters that make a rule fire, for rules no scenario shows.
fn fail_examples() -> Vec<(&'static str, Cluster)> {
    vec![
        (
            "MIG-GO-01",
            with_report(REPORT, &[&root_ks("GitRepository"), GIT_ROOT]),
        ),
        (
            "MIG-GO-08",
            with_report(
                REPORT,
                &[r#"{"kind":"Alert","metadata":{"name":"a","namespace":"flux-system"},"spec":{"providerRef":{"name":"slack"},"eventSources":[{"kind":"GitRepository","name":"gone"}]}}"#],
            ),
        ),
        (
            "MIG-GO-11",
            with_report(
                REPORT,
                &[
                    INSTANCE_OCI,
                    &root_ks("OCIRepository"),
                    r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"ref":{"tag":"latest"}}}"#,
                ],
            ),
        ),
        (
            "MIG-API-02",
            with_report(
                REPORT,
                &[r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"ReconciliationFailed","message":"CustomResourceDefinition.apiextensions.k8s.io \"helmreleases.helm.toolkit.fluxcd.io\" is invalid: status.storedVersions[0]: Invalid value: \"v2beta1\": missing from spec.versions; v2beta1 must remain in spec.versions until a storage migration ensures no data remains persisted in v2beta1"}]}}"#],
            ),
        ),
        (
            "MIG-DIST-07",
            with_report(
                REPORT,
                &[
                    INSTANCE_OCI,
                    r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"inventory":{"entries":[{"id":"flux-system_source-controller_apps_Deployment","v":"v1"}]}}}"#,
                ],
            ),
        ),
        (
            "MIG-DIST-09",
            with_report(
                &REPORT.replace("flux-operator", "flux bootstrap"),
                &[],
            ),
        ),
        ("ENT-01", with_report(REPORT, &[])),
        ("MIG-DIST-01", with_report(REPORT, &[])),
        (
            "MIG-GO-14",
            with_report(
                REPORT,
                &[
                    &root_ks("GitRepository"),
                    r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"GitOperationFailed","message":"failed to checkout and determine revision: unable to clone 'ssh://git@github.com/example-org/fleet': ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain"},{"type":"FetchFailed","status":"True","reason":"GitOperationFailed"}],"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}}"#,
                ],
            ),
        ),
        (
            "MIG-DIST-10",
            with_report(
                &REPORT.replace(
                    r#""components":["#,
                    r#""components":[{"name":"flux","ready":true,"image":"ghcr.io/fluxcd/source-controller:v1.8.0"},"#,
                ),
                &[],
            ),
        ),
    ]
}

#[test]
fn mig_dist_01_reads_managed_by_first() {
    // MIG-DIST-01 reads managedBy first (revision 3): flux-aio's component beside an
    // operator-managed installation is the operator's install (and MIG-DIST-10).
    let twice = with_report(
        &REPORT.replace(
            r#""components":["#,
            r#""components":[{"name":"flux","ready":true,"image":"ghcr.io/fluxcd/source-controller:v1.8.0"},"#,
        ),
        &[],
    );
    assert!(
        run(&twice, "MIG-DIST-01")[0]
            .message
            .contains("Flux Operator"),
        "{:?}",
        run(&twice, "MIG-DIST-01")
    );
}

#[test]
fn a_foreign_crd_upgrade_is_not_flux_migrate() {
    // Regression (#29): cert-manager's storedVersions error read MIG-API-02 critical, "run
    // flux migrate", for a CRD Flux does not own.
    let hr = r#"{"kind":"HelmRelease","metadata":{"name":"cert-manager","namespace":"cert-manager"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"UpgradeFailed","message":"Helm upgrade failed for release cert-manager/cert-manager with chart cert-manager@v1.16.0: cannot patch \"certificates.cert-manager.io\" with kind CustomResourceDefinition: CustomResourceDefinition.apiextensions.k8s.io \"certificates.cert-manager.io\" is invalid: status.storedVersions[0]: Invalid value: \"v1alpha2\": missing from spec.versions"}]}}"#;
    assert!(run(&with_report(REPORT, &[hr]), "MIG-API-02").is_empty());
}

#[test]
fn a_git_root_that_cannot_authenticate_is_critical_on_the_overview() {
    // Regression (#29): "No critical or high findings" while the bootstrap Git root failed
    // with `ssh: unable to authenticate`.
    let root = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"GitOperationFailed","message":"ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey]"}]}}"#;
    let c = with_report(REPORT, &[&root_ks("GitRepository"), root]);
    let f = run(&c, "MIG-GO-14");
    assert_eq!(f[0].severity, Severity::Critical);
    let shown = crate::analyses::findings::aggregate(&evaluate_all(&c));
    let v = crate::analyses::verdict::overview(&shown, None);
    assert_ne!(v.text, "No critical or high findings");
}

#[test]
fn a_failing_signature_on_an_oci_root_is_not_verified() {
    // Regression (#29): SIG-03 critical under a verdict reading "Root source verified".
    let root = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system","labels":{"app.kubernetes.io/managed-by":"flux-operator"}},"spec":{"url":"oci://ghcr.io/example-org/fleet","secretRef":{"name":"ghcr"},"verify":{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"^https://github\\.com/example-org/fleet/\\.github/workflows/release\\.yaml@refs/heads/main$"}]}},"status":{"observedGeneration":3,"conditions":[{"type":"Ready","status":"False","reason":"VerificationError","observedGeneration":3},{"type":"SourceVerified","status":"False","reason":"VerificationError","observedGeneration":3,"message":"failed to verify the signature using provider 'cosign keyless': no matching signatures were found for 'ghcr.io/example-org/fleet:latest'"}]}}"#;
    let c = with_report(REPORT, &[INSTANCE_OCI, &root_ks("OCIRepository"), root]);
    let per_object = evaluate_all(&c);
    assert_eq!(run(&c, "SIG-03")[0].severity, Severity::Critical);
    let g =
        crate::analyses::graph::Graph::build(&c, crate::analyses::graph::GraphOptions::default());
    let postures = crate::analyses::signatures::postures(&c, &g, &per_object);
    let root = postures.iter().find(|p| p.is_root).unwrap();
    assert!(matches!(
        root.verification,
        crate::analyses::signatures::Verification::NotVerified(_)
    ));
    let summary = crate::analyses::signatures::summary(&postures);
    assert_eq!(summary.root_verified, Some(false));
    let v = crate::analyses::verdict::signatures(&summary, Some(&root.verification), &per_object);
    assert!(!v.text.contains("Root source verified"), "{}", v.text);
}

#[test]
fn an_owner_wide_subject_on_the_root_is_high() {
    // Regression (#29): `^https://github[.]com/<owner>/.*$` graded medium and worded as if it
    // named one repository.
    let root = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"url":"oci://ghcr.io/example-org/fleet","verify":{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^https://token[.]actions[.]githubusercontent[.]com$","subject":"^https://github[.]com/example-org/.*$"}]}}}"#;
    let c = with_report(REPORT, &[&root_ks("OCIRepository"), root]);
    let f = run(&c, "SIG-07");
    assert_eq!(f[0].severity, Severity::High);
    assert!(
        f[0].message.contains("Any repository of example-org"),
        "{}",
        f[0].message
    );
    // Pinned to a branch pattern: medium; anyone's workflow (owner open): SIG-06 critical.
    let any_branch = root.replace(
        "example-org/.*$",
        "example-org/fleet/[.]github/workflows/release[.]yaml@refs/heads/.*$",
    );
    let f = run(
        &with_report(REPORT, &[&root_ks("OCIRepository"), &any_branch]),
        "SIG-07",
    );
    assert_eq!(f[0].severity, Severity::Medium);
    let any_owner = root.replace("example-org/.*$", ".*/fleet/.*$");
    let f = run(
        &with_report(REPORT, &[&root_ks("OCIRepository"), &any_owner]),
        "SIG-06",
    );
    assert_eq!(f[0].severity, Severity::Critical);
}

#[test]
fn a_source_the_delivery_chain_reads_has_its_role() {
    // Revision 3 (§0.3 roles): the chart source of the flux-instance HelmRelease.
    let inst = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"GitRepository"}}}"#;
    let hr = r#"{"kind":"HelmRelease","metadata":{"name":"flux-instance","namespace":"flux-system"},"spec":{"chartRef":{"kind":"OCIRepository","name":"flux-instance"}},"status":{"inventory":{"entries":[{"id":"flux-system_flux_fluxcd.controlplane.io_FluxInstance","v":"v1"}]}}}"#;
    let chart = r#"{"kind":"OCIRepository","metadata":{"name":"flux-instance","namespace":"flux-system"},"spec":{"url":"oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance"}}"#;
    let c = with_report(REPORT, &[inst, hr, chart]);
    let key = crate::model::ObjectKey::parse("OCIRepository/flux-system/flux-instance").unwrap();
    assert_eq!(
        crate::analyses::findings::policy::role_of(&c, &key),
        crate::analyses::findings::policy::Role::DeliveryChain
    );
}

#[test]
fn fips_digests_count_whatever_the_registry() {
    // Revision 3, ENT-03: the AWS Marketplace registry serves FIPS builds; a digest the
    // bundled catalog lists as FIPS passes.
    let Some(fips) = crate::analyses::enterprise::catalog::digests()
        .entries
        .iter()
        .find(|e| e.variant == "enterprise-distroless-fips" && e.component == "source-controller")
    else {
        panic!("the bundled catalog has FIPS digests");
    };
    let image = format!(
        "{}/source-controller:{}@{}",
        crate::analyses::enterprise::AWS_MARKETPLACE_REGISTRY,
        fips.tag,
        fips.digest
    );
    let report = REPORT
        .replace("ghcr.io/fluxcd/source-controller:v1.8.0@sha256:aa", &image)
        .replace("v2.8.3", &fips.version)
        .replace(
            r#""sync""#,
            r#""cluster":{"platform":"linux/amd64"},"sync""#,
        );
    let c = with_report(&report, &[]);
    let profile = crate::analyses::enterprise::Profile {
        require_fips: true,
        ..crate::analyses::enterprise::Profile::default_for(&c)
    };
    let f = crate::analyses::compliance::findings(&ClusterFacts::of(&c), &profile);
    assert!(f.iter().all(|f| f.rule != "ENT-03"), "{f:?}");
}
