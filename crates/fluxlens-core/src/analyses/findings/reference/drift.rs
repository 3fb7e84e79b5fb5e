//! The drift rules' reference entries and titles, in id order. They are judged against a render
//! (`analyses::drift`), so no cluster alone makes them fire, and the registry, which the dashboard
//! evaluates on every model, does not hold them.

use super::RuleDoc;
use crate::analyses::findings::policy::Class::*;
use crate::analyses::findings::reference::sources::{fo, hc, kc, sc};

/// The rules drift reports, with their titles (as SARIF and the reference name them).
pub const TITLES: [(&str, &str); 5] = [
    ("DRIFT-01", "Declared in the render, absent in the cluster"),
    ("DRIFT-02", "In the cluster, declared by no render"),
    ("DRIFT-03", "A delivery field differs from the render"),
    ("DRIFT-04", "Verification declared and not enforced live"),
    (
        "DRIFT-05",
        "The root applied another commit than the one rendered",
    ),
];

/// Their reference entries (docs/rules.md renders them after the catalog's rules).
pub static DOCS: [RuleDoc; 5] = [
    RuleDoc {
        id: "DRIFT-01",
        checks: "A Flux object the render declares that the cluster does not hold, said only when the server answers NotFound for that key (Forbidden or no answer is 'not compared'). Why, from its applier's live state: the applier is missing, suspended or failing, or waits on a chain that never releases (broken delivery); the applier has not applied the rendered revision yet (context); or it has applied it and the object is still absent (the applier builds something else than the render, or the object was deleted since).",
        classes: &[Broken, ControlFailing, Context],
        remediation: "Act on the applier the finding names: resume it, fix what it fails on or waits for, or reconcile it with its source; if it applied the rendered revision, compare the render with what it builds (`flux build kustomization`).",
        sources: &[
            kc!("docs/spec/v1/kustomizations.md"),
            kc!("internal/controller/kustomization_controller.go"),
        ],
    },
    RuleDoc {
        id: "DRIFT-02",
        checks: "A live Flux object that no render declares, judged only where the live lists are complete. What a declared ResourceSet, HelmRelease, ArtifactGenerator or FluxInstance generates is in no render by design and only counted; what an undeclared applier applies is told with it. What applies it decides how loud: a Kustomization applies it from another source than the rendered repository (context); a Kustomization whose render dropped it left it behind (prune off, or not yet applied), or no inventory lists it at all (made by hand or by a tool outside GitOps: degraded assurance).",
        classes: &[Degraded, Context],
        remediation: "Declare the object in the repository, or delete it once nothing reads it; for an applier that left it behind, enable spec.prune.",
        sources: &[
            kc!("docs/spec/v1/kustomizations.md"),
            fo!("docs/api/v1/resourceset.md"),
        ],
    },
    RuleDoc {
        id: "DRIFT-03",
        checks: "A field that decides delivery differs between the render and the live object: suspend, sourceRef, chartRef, the chart's name, version and source, ref, url, path, prune, dependsOn, interval, serviceAccountName, targetNamespace. The API server's forms of one value are equal (10m and 10m0s, ./apps and apps, a namespace left to default) and a field the render leaves out counts as the value it defaults to where the API server writes none (suspend and prune false, path the artifact's root, no targetNamespace or serviceAccountName); any other keeps whatever the API server defaulted, never drift. A live suspend the render does not declare stops delivery; any other difference is a hand edit the applier has not put back although it applied the rendered revision, or context while it has not.",
        classes: &[Broken, ControlFailing, Context],
        remediation: "Resume a suspended object, or declare the suspension in Git; for an edited field, reconcile its applier so the render's value is applied again, and find who edits it.",
        sources: &[
            kc!("docs/spec/v1/kustomizations.md"),
            hc!("docs/spec/v2/helmreleases.md"),
        ],
    },
    RuleDoc {
        id: "DRIFT-04",
        checks: "spec.verify as the render declares it against the live object — for the FluxInstance's generated root source, the verify its kustomize patches give it as the operator applies them. Declared and absent live is fail-open: artifacts are accepted unverified while the repository says they are checked (critical on the root). Other identity rules than declared is a failing control; verify live that the render does not declare is context.",
        classes: &[FailOpen, ControlFailing, Context],
        remediation: "Make the verify land: for the root, a FluxInstance spec.kustomize.patches entry whose target matches the generated source's kind and name; elsewhere, reconcile the applier and check nothing strips the field. Confirm by reading the live object's spec.verify.",
        sources: &[
            fo!("docs/guides/instance/instance-customization.md"),
            fo!("internal/builder/templates.go"),
            sc!("docs/spec/v1/ocirepositories.md"),
        ],
    },
    RuleDoc {
        id: "DRIFT-05",
        checks: "The commit the root applied against the one rendered (given as --revision): the root source on another branch (a failing control), on another commit — behind by as many commits as a clone counts, or fetched and not applied by the root Kustomization (degraded assurance) — or ahead, a newer merge already landed (context). For an OCI root the commit is the artifact's org.opencontainers.image.revision.",
        classes: &[ControlFailing, Degraded, Context],
        remediation: "Reconcile the root source, then its Kustomization; on another branch, fix the root's ref or the FluxInstance's spec.sync.ref.",
        sources: &[
            sc!("docs/spec/v1/gitrepositories.md"),
            sc!("docs/spec/v1/ocirepositories.md"),
        ],
    },
];
