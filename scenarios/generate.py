#!/usr/bin/env python3
"""Writes the simulator's scenario folders (report.json, objects.json, events.json, crds.json).

Built from the public field reports (jfroy/flatops PR #2161: staged Git -> signed-OCI root;
cozystack PR #1641: distributions and `flux migrate`). Deterministic: re-running it gives the
same files. Run: python3 scenarios/generate.py
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TS = "2026-11-29T09:{:02d}:{:02d}Z"
GIT_SHA = "4c1d9e0b7a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d"
OCI_DIGEST = "sha256:" + "ab" * 32
ID_ISSUER = r"^https://token\.actions\.githubusercontent\.com$"
ID_SUBJECT = r"^https://github\.com/example-org/fleet/\.github/workflows/cluster-release\.yaml@refs/heads/main$"

_t = [0]
def ts():
    _t[0] += 7
    return TS.format((_t[0] // 60) % 60, _t[0] % 60)

def cond(ok=True, reason=None, msg="", typ="Ready"):
    status = ok if isinstance(ok, str) else ("True" if ok else "False")
    return {"type": typ, "status": status, "reason": reason or ("Succeeded" if status == "True" else "Failed"),
            "message": msg, "lastTransitionTime": ts(), "observedGeneration": 1}

def obj(api, kind, ns, name, spec, conditions=(), managed_by="", status_extra=None, annotations=None, labels=None):
    """An object as stored in the cluster. `managed_by` ("Kind/ns/name") becomes what the real
    appliers write: ownership labels on the object and an entry in the owner's native
    status.inventory (see own()). The server-injected reconcilerRef/sourceRef are never written:
    the simulator computes them for GET /api/v1/resource only, as the real server does."""
    meta = {"name": name, "namespace": ns}
    if annotations: meta["annotations"] = annotations
    if labels: meta["labels"] = dict(labels)
    status = {"conditions": list(conditions), "observedGeneration": 1}
    if status_extra: status.update(status_extra)
    o = {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec, "status": status}
    if managed_by: o["_owner"] = managed_by
    return o

# Ownership labels each applier writes (FO internal/web/resource.go reads them back for managedBy).
OWNER_LABELS = {"Kustomization": "kustomize.toolkit.fluxcd.io", "HelmRelease": "helm.toolkit.fluxcd.io",
                "ResourceSet": "resourceset.fluxcd.controlplane.io", "FluxInstance": "fluxcd.controlplane.io"}

def own(objects):
    """Turns each object's `_owner` into labels and an entry of the owner's native inventory."""
    by_key = {f'{o["kind"]}/{o["metadata"]["namespace"]}/{o["metadata"]["name"]}': o for o in objects}
    for o in objects:
        owner = o.pop("_owner", "")
        if not owner:
            continue
        okind, ons, oname = owner.split("/", 2)
        labels = o["metadata"].setdefault("labels", {})
        if okind in OWNER_LABELS:
            labels[f"{OWNER_LABELS[okind]}/name"] = oname
            labels[f"{OWNER_LABELS[okind]}/namespace"] = ons
        if okind == "FluxInstance":
            labels["app.kubernetes.io/managed-by"] = "flux-operator"
        parent = by_key.get(owner)
        # helm-controller lists a release's rendered objects, not the HelmChart it generated;
        # an ArtifactGenerator keeps its own list of ExternalArtifacts.
        if parent is None or okind not in OWNER_LABELS or o["kind"] == "HelmChart":
            continue
        group, _, version = o["apiVersion"].rpartition("/")
        entries = parent["status"].setdefault("inventory", {"entries": []})["entries"]
        entries.append({"id": f'{o["metadata"]["namespace"]}_{o["metadata"]["name"]}_{group}_{o["kind"]}', "v": version})
    for o in objects:
        inv = o["status"].get("inventory")
        if isinstance(inv, dict):
            inv["entries"].sort(key=lambda e: e["id"])
    return objects

SRC = "source.toolkit.fluxcd.io/v1"
KS = "kustomize.toolkit.fluxcd.io/v1"
HR = "helm.toolkit.fluxcd.io/v2"
NOTIF = "notification.toolkit.fluxcd.io/v1beta3"

def status_of(o):
    """(status, message, lastReconciled) as the server derives them (§5.1), for events."""
    st = o["status"]
    ready = next((c for c in st["conditions"] if c["type"] == "Ready"), None)
    last = ready["lastTransitionTime"] if ready else "2026-11-29T08:00:00Z"
    if o["spec"].get("suspend"):
        return "Suspended", "Reconciliation suspended", last
    if ready is None:
        ok = o["kind"] in ("Alert", "Provider") or (o["kind"] == "HelmRepository" and o["spec"].get("type") == "oci")
        return ("Ready", "Valid configuration", last) if ok else ("Unknown", "No status information available", last)
    s = {"True": "Ready", "False": "Failed"}.get(ready["status"], "Progressing")
    if ready["status"] == "False" and ready["reason"] == "DependencyNotReady":
        s = "Progressing"
    return s, ready["message"], last

def components(registry, tag_suffix="", digest=True, names=None):
    names = names or ["helm-controller", "kustomize-controller", "notification-controller", "source-controller"]
    versions = {"helm-controller": "v1.4.3", "kustomize-controller": "v1.7.2", "notification-controller": "v1.7.4",
                "source-controller": "v1.7.3", "image-reflector-controller": "v1.0.2", "image-automation-controller": "v1.0.2",
                "source-watcher": "v2.0.2"}
    out = []
    for i, n in enumerate(sorted(names)):
        img = f"{registry}/{n}:{versions[n]}{tag_suffix}"
        if digest:
            img += "@sha256:" + format(i + 1, "x") * 64
        out.append({"name": n, "ready": True, "status": "Current Deployment is available. Replicas: 1", "image": img})
    return out

def report(version, managed_by, comps, sync, entitlement="Issued by controlplane", operator="v0.58.1"):
    r = {"apiVersion": "fluxcd.controlplane.io/v1", "kind": "FluxReport", "metadata": {"name": "flux", "namespace": "flux-system"},
         "spec": {"distribution": {"entitlement": entitlement, "status": "Installed", "version": version, "managedBy": managed_by},
                  "cluster": {"serverVersion": "v1.34.2", "platform": "linux/amd64", "nodes": 6},
                  "components": comps}}
    if operator:
        r["spec"]["operator"] = {"apiVersion": "fluxcd.controlplane.io/v1", "version": operator, "platform": "linux/amd64"}
    if sync:
        r["spec"]["sync"] = sync
    return r

def crds(stored):
    out = []
    for name, versions in stored.items():
        out.append({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                    "metadata": {"name": name, "labels": {"app.kubernetes.io/part-of": "flux"}},
                    "spec": {"group": name.split(".", 1)[1], "versions": [{"name": v, "served": True, "storage": v == versions[-1]} for v in versions]},
                    "status": {"storedVersions": versions}})
    return out

def events_for(objects, n=40):
    ev = []
    for o in objects[:n]:
        status, message, last = status_of(o)
        ev.append({"lastTimestamp": last, "type": "Warning" if status == "Failed" else "Normal",
                   "message": message or "Reconciliation finished", "involvedObject": f'{o["kind"]}/{o["metadata"]["name"]}',
                   "namespace": o["metadata"]["namespace"]})
    ev.sort(key=lambda e: e["lastTimestamp"] or "", reverse=True)
    return ev

def write(name, rep, objects, crd_list=(), events=None, external=()):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    objects = own(objects)
    files = [("report.json", rep), ("objects.json", objects), ("crds.json", list(crd_list)),
             ("events.json", events if events is not None else events_for(objects))]
    if external:
        files.append(("external.json", list(external)))
    for fname, data in files:
        with open(os.path.join(d, fname), "w") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"{name}: {len(objects)} objects")

def component_status(comps):
    """The FluxInstance's status.components for `comps` (repository, tag, digest of each image)."""
    return [{"name": c["name"], "repository": c["image"].split(":")[0], "tag": c["image"].split(":")[1].split("@")[0],
             "digest": c["image"].split("@")[1]} for c in comps]

def git_root(managed_by="FluxInstance/flux-system/flux", verify=None):
    spec = {"url": "https://github.com/example-org/fleet.git", "ref": {"name": "refs/heads/main"}, "interval": "1m", "secretRef": {"name": "flux-system"}}
    if verify: spec["verify"] = verify
    return obj(SRC, "GitRepository", "flux-system", "flux-system", spec,
               [cond(msg=f"stored artifact for revision 'refs/heads/main@sha1:{GIT_SHA}'")], managed_by,
               {"artifact": {"revision": f"refs/heads/main@sha1:{GIT_SHA}", "digest": "sha256:" + "12" * 32}})

def oci_root(managed_by, verified=True, prune="Disabled", secret=True, ready=True):
    spec = {"url": "oci://ghcr.io/example-org/fleet-manifests", "ref": {"tag": "latest"}, "interval": "1m",
            "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": ID_ISSUER, "subject": ID_SUBJECT}]}}
    if secret: spec["secretRef"] = {"name": "ghcr-auth"}
    rev = f"latest@{OCI_DIGEST}"
    conds = [cond(ready, None if ready else "AuthenticationFailed",
                  f"stored artifact for digest '{rev}'" if ready else "failed to get credential: GET https://ghcr.io/token: UNAUTHORIZED: authentication required")]
    if verified is True:
        conds.append(cond(True, "Succeeded", f"verified signature of revision {rev}", "SourceVerified"))
    elif verified is False:
        conds.append(cond(False, "VerificationError", "failed to verify the signature using provider 'cosign keyless': no matching signatures were found for 'ghcr.io/example-org/fleet-manifests:latest'", "SourceVerified"))
    ann = {"kustomize.toolkit.fluxcd.io/prune": prune} if prune else None
    return obj(SRC, "OCIRepository", "flux-system", "flux-system", spec, conds, managed_by,
               {"artifact": {"revision": rev, "digest": "sha256:" + "34" * 32,
                             "metadata": {"org.opencontainers.image.source": "https://github.com/example-org/fleet",
                                          "org.opencontainers.image.revision": f"main@sha1:{GIT_SHA}"}}} if ready else None,
               annotations=ann)

def drop_verify(o):
    o["spec"].pop("verify", None)
    return o

def instance(sync_kind, registry, variant=None, version="2.7.x", comps_status=None, patches=None, applied="v2.7.3"):
    dist = {"version": version, "registry": registry}
    if variant: dist["variant"] = variant; dist["imagePullSecret"] = "flux-enterprise-auth"
    sync = {"kind": sync_kind, "url": "https://github.com/example-org/fleet.git" if sync_kind == "GitRepository" else "oci://ghcr.io/example-org/fleet-manifests",
            "ref": "refs/heads/main" if sync_kind == "GitRepository" else "latest", "path": "clusters/prod-eu", "pullSecret": "flux-system" if sync_kind == "GitRepository" else "ghcr-auth"}
    spec = {"distribution": dist, "components": ["source-controller", "kustomize-controller", "helm-controller", "notification-controller"],
            "cluster": {"type": "kubernetes", "networkPolicy": True}, "sync": sync}
    if patches: spec["kustomize"] = {"patches": patches}
    return obj("fluxcd.controlplane.io/v1", "FluxInstance", "flux-system", "flux", spec,
               [cond(msg=f"Reconciliation finished in 3s, next run in 1h0m0s")], "",
               {"lastAppliedRevision": f"{applied}@sha256:" + "cd" * 32, "lastAttemptedRevision": f"{applied}@sha256:" + "cd" * 32,
                "components": comps_status or []})

def tenant_apps(ns, source, n_ks=4, n_hr=4, repo_kind="HelmRepository", owner="Kustomization/flux-system/tenants"):
    objs = []
    objs.append(obj(SRC, "HelmRepository", ns, "charts", {"url": "https://charts.example.org/stable", "interval": "1h"},
                    [cond(msg="stored artifact: revision 'sha256:77'")], owner, {"artifact": {"revision": "sha256:" + "77" * 32}}))
    for i in range(n_ks):
        deps = [{"name": f"{ns}-app-{i - 1}"}] if i > 0 else []
        objs.append(obj(KS, "Kustomization", ns, f"{ns}-app-{i}", {"interval": "10m", "path": f"./apps/{ns}/{i}", "prune": True,
                        "sourceRef": dict(source), "dependsOn": deps},
                        [cond(msg=f"Applied revision: " + (f"latest@{OCI_DIGEST}" if source["kind"] == "OCIRepository" else f"refs/heads/main@sha1:{GIT_SHA}"))],
                        owner, {"lastAppliedRevision": f"latest@{OCI_DIGEST}" if source["kind"] == "OCIRepository" else f"refs/heads/main@sha1:{GIT_SHA}"}))
    for i in range(n_hr):
        objs.append(obj(HR, "HelmRelease", ns, f"svc-{i}", {"interval": "30m", "chart": {"spec": {"chart": f"svc-{i}", "version": "1.x",
                        "sourceRef": {"kind": repo_kind, "name": "charts"}}}},
                        [cond(msg=f"Helm upgrade succeeded for release {ns}/svc-{i}.v3 with chart svc-{i}@1.4.{i}")], owner,
                        {"helmChart": f"{ns}/{ns}-svc-{i}"}))
        objs.append(obj(SRC, "HelmChart", ns, f"{ns}-svc-{i}", {"chart": f"svc-{i}", "version": "1.x", "sourceRef": {"kind": repo_kind, "name": "charts"}},
                        [cond(msg=f"pulled 'svc-{i}' chart with version '1.4.{i}'")], f"HelmRelease/{ns}/svc-{i}", {"artifact": {"revision": f"1.4.{i}"}}))
    return objs

def demo():
    """Mid-way through the staged Git -> signed-OCI root migration (stage M3: consumers flipping)."""
    reg = "ghcr.io/controlplaneio-fluxcd/distroless"
    comps = components(reg)
    comp_status = component_status(comps)
    objs = [instance("GitRepository", reg, "enterprise-distroless", comps_status=comp_status,
                     patches=[{"patch": "- op: add\n  path: /spec/verify\n  value:\n    provider: cosign", "target": {"kind": "OCIRepository"}}]),
            git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/prod-eu", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            oci_root("Kustomization/flux-system/flux-system"),
            obj(KS, "Kustomization", "flux-system", "tenants", {"interval": "10m", "path": "./tenants", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}, "dependsOn": [{"name": "infra-configs"}]},
                [cond(msg=f"Applied revision: latest@{OCI_DIGEST}")], "Kustomization/flux-system/flux-system",
                {"lastAppliedRevision": f"latest@{OCI_DIGEST}", "lastAppliedOriginRevision": f"main@sha1:{GIT_SHA}"}),
            obj(KS, "Kustomization", "flux-system", "infra-controllers", {"interval": "1h", "path": "./infrastructure/controllers", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: latest@{OCI_DIGEST}")], "Kustomization/flux-system/flux-system",
                {"lastAppliedRevision": f"latest@{OCI_DIGEST}", "lastAppliedOriginRevision": f"main@sha1:{GIT_SHA}"}),
            obj(KS, "Kustomization", "flux-system", "infra-configs", {"interval": "1h", "path": "./infrastructure/configs", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}, "dependsOn": [{"name": "infra-controllers"}]},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "Kustomization/flux-system/flux-system"),
            obj(NOTIF, "Provider", "flux-system", "github-status", {"type": "github", "address": "https://github.com/example-org/fleet", "secretRef": {"name": "github-token"}}, [], "Kustomization/flux-system/flux-system"),
            obj(NOTIF, "Alert", "flux-system", "commit-status", {"providerRef": {"name": "github-status"}, "eventSeverity": "info",
                "eventSources": [{"kind": "Kustomization", "name": "*"}, {"kind": "GitRepository", "name": "flux-system"}]}, [], "Kustomization/flux-system/flux-system"),
            obj("notification.toolkit.fluxcd.io/v1", "Receiver", "flux-system", "cluster-release", {"type": "generic-oidc",
                "resources": [{"kind": "OCIRepository", "name": "flux-system"}]},
                [cond(msg="Receiver initialized for path: /hook/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5")], "Kustomization/flux-system/flux-system",
                {"webhookPath": "/hook/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5"}),
            ]
    tenants = ["payments", "ledger", "search", "identity", "web", "data", "ml", "edge", "mobile", "risk"]
    for t_i, t in enumerate(tenants):
        ns = f"team-{t}"
        # Tenants flip from Git to the signed OCI root one by one: the first five are done.
        src = {"kind": "OCIRepository", "name": "flux-system", "namespace": "flux-system"} if t_i < 6 else {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}
        objs += tenant_apps(ns, src, n_ks=7, n_hr=5 if t_i % 2 == 0 else 4)
    # A chart delivered as OCI artifact via chartRef, and an ArtifactGenerator slicing the root.
    objs.append(obj(SRC, "OCIRepository", "team-web", "web-chart", {"url": "oci://ghcr.io/example-org/charts/web", "ref": {"semver": "2.x"},
                    "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": ID_ISSUER, "subject": r"^https://github\.com/example-org/web/\.github/workflows/release\.yaml@refs/tags/v.*$"}]}},
                    [cond(msg="stored artifact"), cond(True, "Succeeded", f"verified signature of revision 2.4.1@{OCI_DIGEST}", "SourceVerified")],
                    "Kustomization/flux-system/tenants", {"artifact": {"revision": f"2.4.1@{OCI_DIGEST}"}}))
    objs.append(obj(HR, "HelmRelease", "team-web", "web-frontend", {"interval": "10m", "chartRef": {"kind": "OCIRepository", "name": "web-chart"}},
                    [cond(msg="Helm upgrade succeeded for release team-web/web-frontend.v12 with chart web@2.4.1")], "Kustomization/flux-system/tenants"))
    objs.append(obj("source.extensions.fluxcd.io/v1beta1", "ArtifactGenerator", "flux-system", "platform-slices",
                    {"sources": [{"alias": "root", "kind": "OCIRepository", "name": "flux-system"}],
                     "artifacts": [{"name": "policies", "copy": [{"from": "@root/policies/**", "to": "@artifact/"}]}, {"name": "dashboards", "copy": [{"from": "@root/dashboards/**", "to": "@artifact/"}]}]},
                    [cond(msg="reconciliation succeeded, generated 2 artifact(s)")], "Kustomization/flux-system/flux-system",
                    {"inventory": [{"name": "policies", "namespace": "flux-system"}, {"name": "dashboards", "namespace": "flux-system"}]}))
    for a in ["policies", "dashboards"]:
        objs.append(obj(SRC, "ExternalArtifact", "flux-system", a, {"sourceRef": {"apiVersion": "source.extensions.fluxcd.io/v1beta1", "kind": "ArtifactGenerator", "name": "platform-slices"}},
                        [cond(msg=f"stored artifact for revision 'latest@sha256:{'5' * 64}'")], "ArtifactGenerator/flux-system/platform-slices",
                        {"artifact": {"revision": "latest@sha256:" + "5" * 64}}))
        objs.append(obj(KS, "Kustomization", "flux-system", f"platform-{a}", {"interval": "10m", "path": "./", "prune": True,
                        "sourceRef": {"kind": "ExternalArtifact", "name": a}, "dependsOn": [{"name": "infra-controllers"}]},
                        [cond(msg="Applied revision: latest@sha256:" + "5" * 64)], "Kustomization/flux-system/flux-system"))
    # Image automation stays on Git (an allowed holdout), one app is still progressing.
    objs.append(obj("image.toolkit.fluxcd.io/v1", "ImageUpdateAutomation", "flux-system", "fleet-images",
                    {"sourceRef": {"kind": "GitRepository", "name": "flux-system"}, "git": {"commit": {"author": {"name": "fluxbot"}}}, "interval": "30m"},
                    [cond(msg="repository up-to-date")], "Kustomization/flux-system/flux-system"))
    objs.append(obj(KS, "Kustomization", "team-ml", "team-ml-training", {"interval": "10m", "path": "./ml/training", "prune": True,
                    "sourceRef": {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}, "suspend": True},
                    [cond(msg="Applied revision")], "Kustomization/flux-system/tenants"))
    objs.append(obj(KS, "Kustomization", "team-data", "team-data-etl", {"interval": "10m", "path": "./data/etl", "prune": True,
                    "sourceRef": {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}, "dependsOn": [{"name": "team-data-app-4"}]},
                    [cond("Unknown", "Progressing", "Reconciliation in progress")], "Kustomization/flux-system/tenants"))
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/prod-eu", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    stored = {"gitrepositories.source.toolkit.fluxcd.io": ["v1"], "ocirepositories.source.toolkit.fluxcd.io": ["v1"],
              "helmrepositories.source.toolkit.fluxcd.io": ["v1"], "helmcharts.source.toolkit.fluxcd.io": ["v1"],
              "kustomizations.kustomize.toolkit.fluxcd.io": ["v1"], "helmreleases.helm.toolkit.fluxcd.io": ["v2beta2", "v2"],
              "alerts.notification.toolkit.fluxcd.io": ["v1beta3"], "providers.notification.toolkit.fluxcd.io": ["v1beta3"],
              "receivers.notification.toolkit.fluxcd.io": ["v1"], "externalartifacts.source.toolkit.fluxcd.io": ["v1"],
              "artifactgenerators.source.extensions.fluxcd.io": ["v1beta1"], "imageupdateautomations.image.toolkit.fluxcd.io": ["v1"],
              "fluxinstances.fluxcd.controlplane.io": ["v1"]}
    # The operator's Normal event when a newer Flux patch is available (ENT-14 reads it; the web
    # API gives no reason field, so the message is what is matched).
    events = events_for(objs)
    events.insert(0, {"lastTimestamp": "2026-11-29T10:00:00Z", "type": "Normal", "namespace": "flux-system",
                      "involvedObject": "FluxInstance/flux", "message": "Outdated version: Flux v2.7.5 is available, v2.7.3 is installed"})
    write("demo", rep, objs, crds(stored), events=events)

def broken():
    """Dangling references (the S003 bootstrap deadlock), failing verification, auth failure, a dependsOn cycle."""
    comps = components("ghcr.io/fluxcd", digest=False)
    comps[0]["ready"] = False
    comps[0]["status"] = "InProgress Deployment is not ready. Replicas: 0/1"
    objs = [instance("OCIRepository", "ghcr.io/fluxcd", comps_status=[],
                     patches=[{"patch": "- op: add\n  path: /spec/verify\n  value:\n    provider: cosign", "target": {"kind": "OCIRepository", "name": "flux"}}]),
            drop_verify(oci_root("FluxInstance/flux-system/flux", verified=None, prune=None, secret=False, ready=False)),
            obj(SRC, "OCIRepository", "apps", "signed-app", {"url": "oci://ghcr.io/example-org/signed-app", "ref": {"tag": "latest"}, "secretRef": {"name": "ghcr"},
                "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": ID_ISSUER, "subject": ID_SUBJECT}]}},
                [cond(False, "VerificationError", "failed to verify the signature using provider 'cosign keyless': no matching signatures were found for 'ghcr.io/example-org/signed-app:latest'"),
                 cond(False, "VerificationError", "failed to verify the signature using provider 'cosign keyless': no matching signatures were found for 'ghcr.io/example-org/signed-app:latest'", "SourceVerified")],
                "Kustomization/flux-system/cluster-apps"),
            obj(SRC, "OCIRepository", "apps", "no-verdict", {"url": "oci://ghcr.io/example-org/no-verdict", "ref": {"digest": "sha256:" + "dd" * 32}, "secretRef": {"name": "ghcr"},
                "verify": {"provider": "notation", "secretRef": {"name": "notation-ca"}}},
                [cond(msg="stored artifact")], "Kustomization/flux-system/cluster-apps", {"artifact": {"revision": "sha256:" + "dd" * 32}}),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/prod", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(False, "ArtifactFailed", "Source artifact not found, retrying in 30s")], "FluxInstance/flux-system/flux"),
            obj(KS, "Kustomization", "flux-system", "cluster-apps", {"interval": "10m", "path": "./apps", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "cluster-apps"}},
                [cond(False, "ArtifactFailed", 'ocirepositories.source.toolkit.fluxcd.io "cluster-apps" not found')], "Kustomization/flux-system/flux-system"),
            obj(KS, "Kustomization", "apps", "frontend", {"interval": "10m", "path": "./frontend", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "apps-repo"}, "dependsOn": [{"name": "backend"}]},
                [cond(False, "DependencyNotReady", "dependency 'apps/backend' is not ready")], "Kustomization/flux-system/cluster-apps"),
            obj(KS, "Kustomization", "apps", "backend", {"interval": "10m", "path": "./backend", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "apps-repo"}, "dependsOn": [{"name": "frontend"}, {"name": "database"}]},
                [cond(False, "DependencyNotReady", "dependency 'apps/frontend' is not ready")], "Kustomization/flux-system/cluster-apps"),
            obj(SRC, "GitRepository", "apps", "apps-repo", {"url": "https://github.com/example-org/apps.git", "ref": {"branch": "main"},
                "verify": {"mode": "Tag", "secretRef": {"name": "pgp-keys"}}},
                [cond(False, "InvalidVerificationMode", "cannot verify tag: no tag ref given")], "Kustomization/flux-system/cluster-apps"),
            obj(HR, "HelmRelease", "apps", "redis", {"interval": "10m", "chart": {"spec": {"chart": "redis", "sourceRef": {"kind": "HelmRepository", "name": "bitnami"},
                "verify": {"provider": "cosign"}}}},
                [cond(False, "ArtifactFailed", 'HelmChart \'apps/apps-redis\' is not ready: helmrepositories.source.toolkit.fluxcd.io "bitnami" not found')], "Kustomization/flux-system/cluster-apps"),
            obj(SRC, "Bucket", "apps", "assets", {"bucketName": "assets", "endpoint": "minio.example.org", "provider": "generic"},
                [cond(msg="stored artifact")], "Kustomization/flux-system/cluster-apps", {"artifact": {"revision": "sha256:" + "99" * 32}}),
            obj(KS, "Kustomization", "apps", "assets", {"interval": "10m", "path": "./", "prune": True, "sourceRef": {"kind": "Bucket", "name": "assets"}},
                [cond(msg="Applied revision: sha256:" + "99" * 32)], "Kustomization/flux-system/cluster-apps"),
            obj(SRC, "OCIRepository", "apps", "public-manifests", {"url": "oci://ghcr.io/me/cluster", "ref": {"tag": "latest"}},
                [cond(msg="stored artifact")], "Kustomization/flux-system/cluster-apps", {"artifact": {"revision": "latest@sha256:" + "42" * 32}}),
            obj(SRC, "OCIRepository", "apps", "broad-identity", {"url": "oci://ghcr.io/example-org/broad", "ref": {"tag": "latest"},
                "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": "token.actions.githubusercontent.com", "subject": ".*"}]}},
                [cond(msg="stored artifact"), cond(True, "Succeeded", "verified signature of revision latest@sha256:" + "aa" * 32, "SourceVerified")],
                "Kustomization/flux-system/cluster-apps", {"artifact": {"revision": "latest@sha256:" + "bb" * 32}}),
            obj(HR, "HelmRelease", "apps", "dashboards", {"interval": "10m", "chart": {"spec": {"chart": "./charts/dashboards", "sourceRef": {"kind": "GitRepository", "name": "apps-repo"},
                "verify": {"provider": "cosign", "secretRef": {"name": "cosign-pub"}}}}},
                [cond(msg="Helm install succeeded")], "Kustomization/flux-system/cluster-apps", {"helmChart": "apps/apps-dashboards"}),
            obj(SRC, "HelmChart", "apps", "apps-dashboards", {"chart": "./charts/dashboards", "sourceRef": {"kind": "GitRepository", "name": "apps-repo"},
                "verify": {"provider": "cosign", "secretRef": {"name": "cosign-pub"}}},
                [cond(msg="packaged 'dashboards' chart with version '0.3.0'")], "HelmRelease/apps/dashboards", {"artifact": {"revision": "0.3.0"}}),
            obj(SRC, "OCIRepository", "apps", "multi-identity", {"url": "oci://ghcr.io/example-org/multi", "ref": {"semver": "1.x"}, "secretRef": {"name": "ghcr"},
                "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": ID_ISSUER, "subject": ID_SUBJECT},
                                                                       {"issuer": ID_ISSUER, "subject": r"^https://github\.com/example-org/fleet/\.github/workflows/.*@refs/heads/main$"}]}},
                [cond(msg="stored artifact"), cond(True, "Succeeded", "verified signature of revision 1.4.2@sha256:" + "cc" * 32, "SourceVerified")],
                "Kustomization/flux-system/cluster-apps", {"artifact": {"revision": "1.4.2@sha256:" + "cc" * 32}}),
            obj(NOTIF, "Alert", "flux-system", "slack", {"providerRef": {"name": "slack"}, "eventSources": [{"kind": "GitRepository", "name": "flux-system"}]}, [], "Kustomization/flux-system/flux-system"),
            ]
    # S003 deadlock: the FluxInstance itself is delivered by cluster-apps, whose source only exists once it applies.
    objs[0]["_owner"] = "Kustomization/flux-system/cluster-apps"
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/prod", "ready": False, "source": "oci://ghcr.io/example-org/fleet-manifests",
                  "status": "Source artifact not found, retrying in 30s\nfailed to get credential: UNAUTHORIZED"}, entitlement="Unknown")
    write("broken", rep, objs, [])

def enterprise_fips():
    """Flux Enterprise, distroless FIPS variant, fully migrated to a signed OCI root owned by the instance."""
    reg = "ghcr.io/controlplaneio-fluxcd/distroless-fips"
    comps = components(reg)
    comp_status = component_status(comps)
    patches = [{"patch": "- op: add\n  path: /spec/verify\n  value:\n    provider: cosign\n    matchOIDCIdentity:\n    - issuer: " + ID_ISSUER + "\n      subject: " + ID_SUBJECT,
                "target": {"kind": "OCIRepository", "name": "flux-system"}}]
    objs = [instance("OCIRepository", reg, "enterprise-distroless-fips", version="2.7.x", comps_status=comp_status, patches=patches),
            oci_root("FluxInstance/flux-system/flux", prune=None),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/prod-fips", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: latest@{OCI_DIGEST}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"latest@{OCI_DIGEST}", "lastAppliedOriginRevision": f"main@sha1:{GIT_SHA}"}),
            obj(KS, "Kustomization", "flux-system", "tenants", {"interval": "10m", "path": "./tenants", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: latest@{OCI_DIGEST}")], "Kustomization/flux-system/flux-system")]
    for t in ["gov", "health", "finance"]:
        objs += tenant_apps(f"team-{t}", {"kind": "OCIRepository", "name": "flux-system", "namespace": "flux-system"}, n_ks=3, n_hr=2)
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/prod-fips", "ready": True, "source": "oci://ghcr.io/example-org/fleet-manifests",
                  "status": f"Applied revision: latest@{OCI_DIGEST}"}, entitlement="Issued by controlplane-aws")
    write("enterprise-fips", rep, objs, [])

def upstream_bootstrap():
    """Installed by `flux bootstrap` on Flux 2.6, objects pending storage migration, no FluxInstance."""
    comps = components("ghcr.io/fluxcd", digest=False, names=["helm-controller", "kustomize-controller", "notification-controller",
                                                           "source-controller", "image-reflector-controller", "image-automation-controller"])
    objs = [git_root(managed_by=""),
            obj("kustomize.toolkit.fluxcd.io/v1", "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/legacy", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "",
                {"inventory": {"entries": [{"id": "flux-system_source-controller_apps_Deployment", "v": "v1"}]}})]
    for t in ["alpha", "beta"]:
        objs += tenant_apps(f"team-{t}", {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}, n_ks=3, n_hr=3,
                            owner="Kustomization/flux-system/flux-system")
    stored = {"gitrepositories.source.toolkit.fluxcd.io": ["v1beta2", "v1"], "helmreleases.helm.toolkit.fluxcd.io": ["v2beta1", "v2beta2", "v2"],
              "kustomizations.kustomize.toolkit.fluxcd.io": ["v1beta2", "v1"], "helmrepositories.source.toolkit.fluxcd.io": ["v1"],
              "helmcharts.source.toolkit.fluxcd.io": ["v1"], "imagepolicies.image.toolkit.fluxcd.io": ["v1beta2"]}
    rep = report("v2.6.4", "flux bootstrap", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/legacy", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"}, entitlement="Unknown", operator="v0.58.1")
    write("upstream-bootstrap", rep, objs, crds(stored))

def hostile():
    """Markup, script and very long strings in every field the views render (must stay text)."""
    x = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    long = "a" * 600
    comps = components("ghcr.io/fluxcd")
    comps[0]["status"] = x
    objs = [obj(SRC, "GitRepository", "flux-system", "flux-system", {"url": "https://example.org/" + x}, [cond(False, "Failed", x + long)], ""),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"sourceRef": {"kind": "GitRepository", "name": "flux-system"}}, [cond(msg=x)], ""),
            obj(KS, "Kustomization", "apps", "n" + long[:200], {"sourceRef": {"kind": "GitRepository", "name": x, "namespace": "flux-system"}, "dependsOn": [{"name": x}]}, [cond(False, "ArtifactFailed", x)], "Kustomization/flux-system/flux-system"),
            obj(SRC, "OCIRepository", "apps", "identity", {"url": "oci://x/" + x, "verify": {"provider": "cosign", "matchOIDCIdentity": [{"issuer": x, "subject": x + long}]}},
                [cond(msg=x), cond(True, "Succeeded", "verified signature of revision " + x, "SourceVerified")], "Kustomization/flux-system/flux-system", {"artifact": {"revision": x}})]
    rep = report("v2.7.3" + x, x, comps, {"id": "kustomization/flux-system", "ready": False, "source": x, "status": x}, entitlement=x)
    write("hostile", rep, objs, [])

RSET = "fluxcd.controlplane.io/v1"

def operator_mock():
    """Shaped like the Flux Operator UI's own captured cluster: a healthy Git-synced instance
    whose ResourceSets depend on a cluster-scoped Tailscale ProxyGroup and on a CRD (not Flux
    kinds). Not migrating: every card must stay calm and nothing may be drawn as missing."""
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    comp_status = component_status(comps)
    objs = [instance("GitRepository", reg, comps_status=comp_status),
            git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/homelab", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            obj(KS, "Kustomization", "flux-system", "infra", {"interval": "1h", "path": "./infrastructure", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "Kustomization/flux-system/flux-system"),
            obj(RSET, "ResourceSetInputProvider", "tailscale", "services", {"type": "Static", "defaultValues": {"tag": "1.0"}},
                [cond(msg="Reconciliation finished")], "Kustomization/flux-system/infra"),
            ]
    for name in ["grafana", "homeassistant", "immich"]:
        objs.append(obj(RSET, "ResourceSet", "tailscale", f"{name}-ingress",
                        {"inputsFrom": [{"name": "services"}],
                         "dependsOn": [{"apiVersion": "tailscale.com/v1alpha1", "kind": "ProxyGroup", "name": "ingress", "ready": True},
                                       {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "name": "proxygroups.tailscale.com"}],
                         "resources": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}}]},
                        [cond(msg="Reconciliation finished in 120ms")], "Kustomization/flux-system/infra"))
    objs.append(obj(SRC, "HelmRepository", "flux-system", "tailscale", {"url": "https://pkgs.tailscale.com/helmcharts", "interval": "12h"},
                    [cond(msg="stored artifact: revision 'sha256:" + "61" * 32 + "'")], "Kustomization/flux-system/infra",
                    {"artifact": {"revision": "sha256:" + "61" * 32}}))
    objs.append(obj(HR, "HelmRelease", "tailscale", "tailscale-operator", {"interval": "1h", "chart": {"spec": {"chart": "tailscale-operator", "version": "1.78.x",
                    "sourceRef": {"kind": "HelmRepository", "name": "tailscale", "namespace": "flux-system"}}}},
                    [cond(msg="Helm upgrade succeeded for release tailscale/tailscale-operator.v4 with chart tailscale-operator@1.78.3")],
                    "Kustomization/flux-system/infra", {"helmChart": "flux-system/tailscale-tailscale-operator"}))
    objs.append(obj(SRC, "HelmChart", "flux-system", "tailscale-tailscale-operator", {"chart": "tailscale-operator", "version": "1.78.x",
                    "sourceRef": {"kind": "HelmRepository", "name": "tailscale"}},
                    [cond(msg="pulled 'tailscale-operator' chart with version '1.78.3'")], "HelmRelease/tailscale/tailscale-operator",
                    {"artifact": {"revision": "1.78.3"}}))
    external = [{"apiVersion": "tailscale.com/v1alpha1", "kind": "ProxyGroup", "metadata": {"name": "ingress"},
                 "spec": {"type": "ingress", "replicas": 2},
                 "status": {"conditions": [{"type": "ProxyGroupReady", "status": "True", "reason": "ProxyGroupReady"}]}}]
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/homelab", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    crd_list = crds({"proxygroups.tailscale.com": ["v1alpha1"], "gitrepositories.source.toolkit.fluxcd.io": ["v1"],
                     "kustomizations.kustomize.toolkit.fluxcd.io": ["v1"], "helmreleases.helm.toolkit.fluxcd.io": ["v2"],
                     "helmrepositories.source.toolkit.fluxcd.io": ["v1"], "helmcharts.source.toolkit.fluxcd.io": ["v1"],
                     "resourcesets.fluxcd.controlplane.io": ["v1"], "resourcesetinputproviders.fluxcd.controlplane.io": ["v1"],
                     "fluxinstances.fluxcd.controlplane.io": ["v1"]})
    crd_list[0]["metadata"]["labels"] = {"app.kubernetes.io/name": "tailscale"}
    write("operator-mock", rep, objs, crd_list, external=external)

def staged():
    """Stage M2 of the Git -> signed-OCI migration: the parallel OCIRepository is delivered by
    the Git root Kustomization without a prune opt-out (MIG-GO-05 must fire)."""
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    comp_status = component_status(comps)
    objs = [instance("GitRepository", reg, comps_status=comp_status),
            git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/staging", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            oci_root("Kustomization/flux-system/flux-system", prune=None),
            obj(KS, "Kustomization", "flux-system", "apps", {"interval": "10m", "path": "./apps", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "Kustomization/flux-system/flux-system")]
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/staging", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    write("staged", rep, objs, [])

def handover():
    """The seed's repository the day before the handover (jfroy/flatops #2161): the
    OCIRepository that will become the root carries cosign verify delivered from Git, the
    FluxInstance has nine patches and none puts verify back (SIG-09 predicts the fail-open)."""
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    comp_status = component_status(comps)
    ctl = lambda name, flag: {"patch": f"- op: add\n  path: /spec/template/spec/containers/0/args/-\n  value: {flag}",
                              "target": {"kind": "Deployment", "name": name}}
    patches = [ctl("kustomize-controller", "--concurrent=20"), ctl("helm-controller", "--concurrent=10"),
               ctl("source-controller", "--requeue-dependency=5s"), ctl("kustomize-controller", "--requeue-dependency=5s"),
               ctl("helm-controller", "--requeue-dependency=5s"),
               {"patch": "- op: add\n  path: /spec/template/spec/containers/0/args/-\n  value: --feature-gates=OOMWatch=true", "target": {"kind": "Deployment", "name": "helm-controller"}},
               {"patch": "- op: replace\n  path: /spec/template/spec/containers/0/resources/limits/memory\n  value: 2Gi", "target": {"kind": "Deployment", "name": "(kustomize|helm)-controller"}},
               {"patch": "- op: add\n  path: /spec/decryption\n  value:\n    provider: sops\n    secretRef:\n      name: sops-age", "target": {"kind": "Kustomization"}},
               {"patch": "- op: add\n  path: /spec/interval\n  value: 1h", "target": {"kind": "GitRepository"}}]
    inst = instance("GitRepository", reg, comps_status=comp_status, patches=patches)
    inst["spec"]["sync"]["pullSecret"] = "ghcr-auth"
    objs = [inst,
            git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/main", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            oci_root("Kustomization/flux-system/flux-system"),
            obj(KS, "Kustomization", "flux-system", "apps", {"interval": "10m", "path": "./apps", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: latest@{OCI_DIGEST}")], "Kustomization/flux-system/flux-system",
                {"lastAppliedRevision": f"latest@{OCI_DIGEST}", "lastAppliedOriginRevision": f"main@sha1:{GIT_SHA}"})]
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/main", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    write("handover", rep, objs, [])

def helm_storage_secret(ns, release, version, manifest):
    """A Helm storage Secret as the cluster holds it: the Secret's base64 around Helm's base64 of
    gzipped JSON (FO internal/web/inventory.go `decodeHelmStorage` reads it back)."""
    import base64, gzip
    body = json.dumps({"name": release, "manifest": manifest}, sort_keys=True).encode()
    helm = base64.b64encode(gzip.compress(body, mtime=0))
    return {"apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
            "metadata": {"name": f"sh.helm.release.v1.{release}.v{version}", "namespace": ns,
                         "labels": {"owner": "helm", "name": release, "version": str(version), "status": "deployed"}},
            "data": {"release": base64.b64encode(helm).decode()}}

def helm_storage():
    """Flux 2.7 with the operator and the instance installed by the flux-operator and
    flux-instance charts: HelmReleases keep no status.inventory, their objects are in Helm
    storage, which only GET /api/v1/resource decodes (owners on Flux <= 2.7, #22)."""
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    inst = instance("GitRepository", reg, comps_status=component_status(comps))
    inst["metadata"]["labels"] = {"app.kubernetes.io/managed-by": "Helm"}
    def release(ns, name, chart_ref, version, target_ns, extra_spec=None, ready=True):
        spec = {"interval": "1h", "chartRef": chart_ref, "releaseName": name}
        if extra_spec: spec.update(extra_spec)
        status = {"storageNamespace": target_ns, "history": [
            {"name": name, "namespace": target_ns, "version": version, "chartName": name, "chartVersion": "0.33.0", "status": "deployed"},
            {"name": name, "namespace": target_ns, "version": version - 1, "chartName": name, "chartVersion": "0.32.0", "status": "superseded"}],
            "lastAttemptedRevision": "0.33.0"}
        msg = f"Helm upgrade succeeded for release {target_ns}/{name}.v{version} with chart {name}@0.33.0"
        return obj(HR, "HelmRelease", ns, name, spec, [cond(ready, None if ready else "InstallFailed", msg)],
                   "Kustomization/flux-system/flux-system", status)
    chart = lambda name: obj(SRC, "OCIRepository", "flux-system", name,
                             {"url": f"oci://ghcr.io/controlplaneio-fluxcd/charts/{name}", "interval": "1h", "ref": {"semver": "*"},
                              "layerSelector": {"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip", "operation": "copy"}},
                             [cond(msg=f"stored artifact for digest '0.33.0@sha256:{'66' * 32}'")], "Kustomization/flux-system/flux-system",
                             {"artifact": {"revision": f"0.33.0@sha256:{'66' * 32}", "digest": "sha256:" + "77" * 32}})
    objs = [inst, git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/home", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            chart("flux-operator"), chart("flux-instance"),
            release("flux-system", "flux-operator", {"kind": "OCIRepository", "name": "flux-operator"}, 4, "flux-system"),
            release("flux-system", "flux-instance", {"kind": "OCIRepository", "name": "flux-instance"}, 7, "flux-system"),
            obj(SRC, "HelmRepository", "flux-system", "podinfo", {"url": "oci://ghcr.io/stefanprodan/charts", "type": "oci", "interval": "1h"},
                [], "Kustomization/flux-system/flux-system"),
            obj(HR, "HelmRelease", "flux-system", "podinfo-edge", {"interval": "1h", "chart": {"spec": {"chart": "podinfo", "sourceRef": {"kind": "HelmRepository", "name": "podinfo"}}},
                "kubeConfig": {"secretRef": {"name": "edge-kubeconfig"}}, "targetNamespace": "podinfo"},
                [cond(msg="Helm install succeeded for release podinfo/podinfo-edge.v1 with chart podinfo@6.9.2")], "Kustomization/flux-system/flux-system",
                {"storageNamespace": "podinfo", "history": [{"name": "podinfo-edge", "namespace": "podinfo", "version": 1, "chartName": "podinfo", "chartVersion": "6.9.2", "status": "deployed"}],
                 "helmChart": "flux-system/flux-system-podinfo-edge"})]
    operator_manifest = "\n".join([
        "---\n# Source: flux-operator/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flux-operator\n  namespace: flux-system",
        "---\n# Source: flux-operator/templates/crds.yaml\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: fluxinstances.fluxcd.controlplane.io",
        "---\n# Source: flux-operator/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: flux-operator\n  namespace: flux-system"])
    instance_manifest = "---\n# Source: flux-instance/templates/instance.yaml\napiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: flux\n  namespace: flux-system\n  labels:\n    app.kubernetes.io/managed-by: Helm\nspec:\n  distribution:\n    version: 2.7.x\n"
    external = [helm_storage_secret("flux-system", "flux-operator", 3, "kind: ServiceAccount\nmetadata:\n  name: superseded\n"),
                helm_storage_secret("flux-system", "flux-operator", 4, operator_manifest),
                helm_storage_secret("flux-system", "flux-instance", 7, instance_manifest)]
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/home", "ready": True, "source": "https://github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    write("helm-storage", rep, objs, [], external=external)

HOMELAB_APPS = {
    "default": ["homepage", "atuin", "echo", "it-tools", "searxng", "linkwarden", "paperless", "immich", "mealie", "actual"],
    "media": ["plex", "jellyfin", "sonarr", "radarr", "prowlarr", "bazarr", "sabnzbd", "qbittorrent", "overseerr", "tautulli", "recyclarr", "autobrr"],
    "observability": ["kube-prometheus-stack", "grafana", "loki", "promtail", "gatus", "unpoller", "kromgo", "silence-operator", "blackbox-exporter", "smartctl-exporter"],
    "network": ["cloudflared", "external-dns", "ingress-nginx", "k8s-gateway", "echo-server", "envoy-gateway", "multus", "unifi-dns"],
    "kube-system": ["cilium", "coredns", "metrics-server", "reloader", "spegel", "snapshot-controller", "descheduler", "intel-device-plugin", "node-feature-discovery", "irqbalance"],
    "database": ["cloudnative-pg", "dragonfly-operator", "emqx", "pgadmin"],
    "cert-manager": ["cert-manager"],
    "external-secrets": ["external-secrets", "onepassword-connect"],
    "openebs-system": ["openebs"],
    "rook-ceph": ["rook-ceph-operator", "rook-ceph-cluster"],
    "volsync-system": ["volsync", "kopia"],
    "actions-runner-system": ["actions-runner-controller", "gha-runner-scale-set"],
    "system-upgrade": ["system-upgrade-controller", "tuppr"],
}

def homelab(scenario="homelab", apps=None):
    """A well-run homelab in the shape of onedr0p/home-ops: the FluxInstance syncs a Git root and
    is itself delivered by the flux-instance HelmRelease (chart from the operator's OCI registry);
    about 70 upstream charts come from OCI registries by tag through chartRef. Every object Ready,
    every reference resolving: the findings must stay calm (no critical, no high, <= 20)."""
    apps = apps or HOMELAB_APPS
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    comp_status = component_status(comps)
    inst = instance("GitRepository", reg, version="2.7.x", comps_status=comp_status)
    inst["spec"]["distribution"]["artifact"] = "oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests"
    inst["_owner"] = "HelmRelease/flux-system/flux-instance"
    root_sha = f"refs/heads/main@sha1:{GIT_SHA}"
    objs = [inst, git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "1h", "path": "./kubernetes/flux/cluster", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: {root_sha}")], "FluxInstance/flux-system/flux", {"lastAppliedRevision": root_sha})]
    def app(ns, name, chart_url, tag, deps=(), chart_owner=None):
        ks_ns = ns
        out = [obj(KS, "Kustomization", ks_ns, name, {"interval": "1h", "path": f"./kubernetes/apps/{ns}/{name}/app", "prune": True,
                    "sourceRef": {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}, "targetNamespace": ns,
                    "dependsOn": [{"name": d[1], "namespace": d[0]} for d in deps], "wait": False},
                   [cond(msg=f"Applied revision: {root_sha}")], "Kustomization/flux-system/flux-system", {"lastAppliedRevision": root_sha}),
               obj(SRC, "OCIRepository", ns, name, {"interval": "15m", "url": chart_url, "ref": {"tag": tag},
                    "layerSelector": {"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip", "operation": "copy"}},
                   [cond(msg=f"stored artifact for digest '{tag}@sha256:{'6' * 64}'")], f"Kustomization/{ks_ns}/{name}",
                   {"artifact": {"revision": f"{tag}@sha256:{'6' * 64}", "digest": "sha256:" + "7" * 64}}),
               obj(HR, "HelmRelease", ns, name, {"interval": "1h", "chartRef": {"kind": "OCIRepository", "name": name}, "install": {"remediation": {"retries": -1}}},
                   [cond(msg=f"Helm upgrade succeeded for release {ns}/{name}.v7 with chart {name}@{tag}")], f"Kustomization/{ks_ns}/{name}",
                   {"inventory": {"entries": [{"id": f"{ns}_{name}_apps_Deployment", "v": "v1"}]}})]
        return out
    objs += app("flux-system", "flux-operator", "oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator", "0.33.0")
    objs += app("flux-system", "flux-instance", "oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance", "0.33.0", deps=[("flux-system", "flux-operator")])
    prev = None
    for ns, names in apps.items():
        for i, name in enumerate(names):
            url = f"oci://ghcr.io/home-operations/charts-mirror/{name}" if i % 3 else "oci://ghcr.io/bjw-s-labs/helm/app-template"
            deps = [prev] if prev and i == 0 else []
            objs += app(ns, name, url, f"{4 + i % 3}.{i}.{i % 2}", deps=deps)
        prev = (ns, names[0])
    objs.append(obj(NOTIF, "Provider", "flux-system", "github", {"type": "github", "address": "https://github.com/example-org/home-ops", "secretRef": {"name": "github-token"}}, [], "Kustomization/flux-system/flux-instance"))
    objs.append(obj(NOTIF, "Alert", "flux-system", "github", {"providerRef": {"name": "github"}, "eventSeverity": "info",
                    "eventSources": [{"kind": "Kustomization", "name": "*"}]}, [], "Kustomization/flux-system/flux-instance"))
    objs.append(obj("notification.toolkit.fluxcd.io/v1", "Receiver", "flux-system", "github-webhook", {"type": "github", "events": ["ping", "push"],
                    "secretRef": {"name": "github-webhook-token"}, "resources": [{"kind": "GitRepository", "name": "flux-system"}]},
                    [cond(msg="Receiver initialized for path: /hook/" + "9" * 64)], "Kustomization/flux-system/flux-instance",
                    {"webhookPath": "/hook/" + "9" * 64}))
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "./kubernetes/flux/cluster", "ready": True, "source": "https://github.com/example-org/home-ops.git",
                  "status": f"Applied revision: {root_sha}"}, operator="v0.58.1")
    stored = {"gitrepositories.source.toolkit.fluxcd.io": ["v1"], "ocirepositories.source.toolkit.fluxcd.io": ["v1"],
              "kustomizations.kustomize.toolkit.fluxcd.io": ["v1"], "helmreleases.helm.toolkit.fluxcd.io": ["v2"],
              "alerts.notification.toolkit.fluxcd.io": ["v1beta3"], "providers.notification.toolkit.fluxcd.io": ["v1beta3"],
              "receivers.notification.toolkit.fluxcd.io": ["v1"], "fluxinstances.fluxcd.controlplane.io": ["v1"]}
    write(scenario, rep, objs, crds(stored))


def homelab_large():
    """The homelab at the size of a real one (jfroy/flatops compiles to 426 objects): each of its
    namespaces runs its apps twice over, a second instance of each beside the first. For the load
    bench's real-size row (`make bench`): the first view then waits on a batch read of every
    object, as it does on such a cluster."""
    homelab("homelab-large", {ns: names + [f"{n}-2" for n in names] for ns, names in HOMELAB_APPS.items()})

TENANTS = ["payments", "ledger", "search", "identity", "web", "data", "ml", "edge"]

def multitenant():
    """A company's multi-tenant cluster in the shape of hmcts/sds-flux-config: a Git root, one
    Kustomization per tenant, charts from each tenant's HTTP HelmRepository through chart
    templates (generated HelmCharts). Healthy: calm findings."""
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    comp_status = component_status(comps)
    inst = instance("GitRepository", reg, version="2.7.x", comps_status=comp_status)
    inst["spec"]["distribution"]["artifact"] = "oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests"
    root_sha = f"refs/heads/main@sha1:{GIT_SHA}"
    objs = [inst, git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "./clusters/prod", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: {root_sha}")], "FluxInstance/flux-system/flux", {"lastAppliedRevision": root_sha})]
    for t in TENANTS:
        ns = f"tenant-{t}"
        objs.append(obj(KS, "Kustomization", "flux-system", ns, {"interval": "10m", "path": f"./tenants/{t}", "prune": True, "serviceAccountName": "flux",
                        "targetNamespace": ns, "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                        [cond(msg=f"Applied revision: {root_sha}")], "Kustomization/flux-system/flux-system", {"lastAppliedRevision": root_sha}))
        objs.append(obj(SRC, "HelmRepository", ns, "charts", {"url": f"https://charts.example.org/{t}", "interval": "30m", "secretRef": {"name": "charts-auth"}},
                        [cond(msg=f"stored artifact: revision 'sha256:{'8' * 64}'")], f"Kustomization/flux-system/{ns}",
                        {"artifact": {"revision": "sha256:" + "8" * 64}}))
        for i in range(3):
            name = f"{t}-svc-{i}"
            objs.append(obj(HR, "HelmRelease", ns, name, {"interval": "10m", "chart": {"spec": {"chart": name, "version": "1.x",
                            "sourceRef": {"kind": "HelmRepository", "name": "charts"}}}},
                            [cond(msg=f"Helm upgrade succeeded for release {ns}/{name}.v3 with chart {name}@1.4.{i}")], f"Kustomization/flux-system/{ns}",
                            {"helmChart": f"{ns}/{ns}-{name}"}))
            objs.append(obj(SRC, "HelmChart", ns, f"{ns}-{name}", {"chart": name, "version": "1.x", "sourceRef": {"kind": "HelmRepository", "name": "charts"}},
                            [cond(msg=f"pulled '{name}' chart with version '1.4.{i}'")], f"HelmRelease/{ns}/{name}", {"artifact": {"revision": f"1.4.{i}"}}))
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "./clusters/prod", "ready": True, "source": "https://github.com/example-org/flux-config.git",
                  "status": f"Applied revision: {root_sha}"}, operator="v0.58.1")
    stored = {"gitrepositories.source.toolkit.fluxcd.io": ["v1"], "helmrepositories.source.toolkit.fluxcd.io": ["v1"],
              "helmcharts.source.toolkit.fluxcd.io": ["v1"], "kustomizations.kustomize.toolkit.fluxcd.io": ["v1"],
              "helmreleases.helm.toolkit.fluxcd.io": ["v2"], "fluxinstances.fluxcd.controlplane.io": ["v1"]}
    write("multitenant", rep, objs, crds(stored))

def aio_report(managed_by, comps):
    return report("v2.7.3", managed_by, comps,
                  {"id": "kustomization/flux-system", "path": "./clusters/platform", "ready": True, "source": "https://github.com/example-org/platform.git",
                   "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"}, entitlement="Unknown", operator="v0.58.1")

def aio_objects(with_instance, applied):
    """The platform's Git root and tenants, as cozystack runs them (S000)."""
    root_sha = f"refs/heads/main@sha1:{GIT_SHA}"
    objs = [git_root(managed_by=""),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "./clusters/platform", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: {root_sha}")], "", {"lastAppliedRevision": root_sha})]
    for t in ["alpha", "beta"]:
        objs += tenant_apps(f"tenant-{t}", {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}, n_ks=2, n_hr=2,
                            owner="Kustomization/flux-system/flux-system")
    if with_instance:
        inst = instance("GitRepository", "ghcr.io/fluxcd", version="2.7.x", comps_status=[], applied="v2.7.3")
        inst["spec"].pop("components")
        if not applied:
            inst["status"].pop("lastAppliedRevision")
            inst["status"]["conditions"] = [cond("Unknown", "Progressing", "Reconciliation in progress")]
        objs.insert(0, inst)
    return objs

AIO_IMAGE = "ghcr.io/stefanprodan/flux-aio/source-controller:v1.7.3"

def flux_aio():
    """Before the switch: flux-aio's single `flux` Deployment (Timoni), no FluxInstance. Calm:
    classification and limited-visibility notes only."""
    comps = [{"name": "flux", "ready": True, "status": "Current Deployment is available. Replicas: 1", "image": AIO_IMAGE}]
    write("flux-aio", aio_report("Timoni", comps), aio_objects(False, False), [])

def flux_aio_switching():
    """The switch half-way: the FluxInstance is created but has not applied; the controllers
    still run inside flux-aio's pod."""
    comps = [{"name": "flux", "ready": True, "status": "Current Deployment is available. Replicas: 1", "image": AIO_IMAGE}]
    write("flux-aio-switching", aio_report("Timoni", comps), aio_objects(True, False), [])

def flux_aio_taken_over():
    """After the takeover: the operator owns the installation; helm-controller never came up
    (image pull failure on the new registry)."""
    comps = components("ghcr.io/fluxcd")
    helm = next(c for c in comps if c["name"] == "helm-controller")
    helm["ready"] = False
    helm["status"] = "InProgress Deployment is not ready. Replicas: 0/1 (ImagePullBackOff)"
    write("flux-aio-taken-over", aio_report("flux-operator", comps), aio_objects(True, True), [])


CREDENTIALS = {
    "pat": "ghp_R3alLookingPersonalAccessT0ken1234",
    "chart_token": "cHJpdmF0ZS1jaGFydC10b2tlbi0xMjM0NQ",
    "password": "Sup3rS3cretPassw0rd",
    "jwt": "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiJyZWdpc3RyeSIsImV4cCI6MTc2NDAwMDAwMH0.c2lnbmF0dXJlLW9mLXRoZS1yZWdpc3RyeS10b2tlbg",
    "aws": "AKIAIOSFODNN7EXAMPLE",
}

def credentials():
    """Credentials planted where real clusters leak them (issue #19): a Git URL with a personal
    access token, a chart repository URL with a token, a clone error quoting user:password, a
    registry error quoting a bearer JWT, a bucket error quoting an AWS access key. No share link
    or export may carry any of them."""
    c = CREDENTIALS
    reg = "ghcr.io/fluxcd"
    comps = components(reg)
    objs = [git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "./clusters/prod", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "", {})]
    objs[0]["spec"]["url"] = f"https://ci-bot:{c['pat']}@github.com/example-org/fleet.git"
    objs.append(obj(SRC, "HelmRepository", "apps", "private-charts", {"url": f"https://charts.example.org/stable?token={c['chart_token']}&channel=stable", "interval": "1h"},
                    [cond(msg="stored artifact: revision 'sha256:" + "5" * 64 + "'")], "Kustomization/flux-system/flux-system"))
    objs.append(obj(SRC, "GitRepository", "apps", "app", {"url": "https://git.example.org/app.git", "ref": {"branch": "main"}},
                    [cond(False, "GitOperationFailed", f"failed to checkout and determine revision: unable to clone 'https://deploy:{c['password']}@git.example.org/app.git': authentication required")],
                    "Kustomization/flux-system/flux-system"))
    objs.append(obj(SRC, "OCIRepository", "apps", "registry-app", {"url": "oci://ghcr.io/example-org/app", "ref": {"tag": "latest"}, "secretRef": {"name": "ghcr"}},
                    [cond(False, "OCIArtifactPullFailed", f"GET https://ghcr.io/v2/example-org/app/manifests/latest: unexpected status code 401 Unauthorized (Authorization: Bearer {c['jwt']})")],
                    "Kustomization/flux-system/flux-system"))
    objs.append(obj(SRC, "Bucket", "apps", "assets", {"bucketName": "assets", "endpoint": "s3.amazonaws.com", "provider": "generic", "secretRef": {"name": "s3"}},
                    [cond(False, "BucketOperationFailed", f"failed to list objects in bucket 'assets': AccessDenied: access key {c['aws']} is not allowed")],
                    "Kustomization/flux-system/flux-system"))
    for name, kind, src in [("apps", "GitRepository", "app"), ("assets", "Bucket", "assets")]:
        objs.append(obj(KS, "Kustomization", "apps", name, {"interval": "10m", "path": "./", "prune": True, "sourceRef": {"kind": kind, "name": src}},
                        [cond(False, "ArtifactFailed", "Source artifact not found, retrying in 30s")], "Kustomization/flux-system/flux-system"))
    rep = report("v2.7.3", "flux bootstrap", comps,
                 {"id": "kustomization/flux-system", "path": "./clusters/prod", "ready": True,
                  "source": f"https://ci-bot:{c['pat']}@github.com/example-org/fleet.git",
                  "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"}, entitlement="Unknown")
    write("credentials", rep, objs, [])
    with open(os.path.join(HERE, "credentials", "secrets.json"), "w") as f:
        json.dump(sorted(c.values()), f, indent=1)
        f.write("\n")

def frozen():
    """The live half of the revision 4 deadlock (issue report): `cluster-vap` was flipped to the
    OCI root before the FluxInstance creates it, and `cluster-apps`, which delivers the
    FluxInstance (through the `flux-instance` Kustomization and HelmRelease), dependsOn it.
    Nothing can reach the FluxInstance through Git any more: the cluster is frozen."""
    comps = components("ghcr.io/fluxcd")
    inst = instance("GitRepository", "ghcr.io/fluxcd", comps_status=component_status(comps))
    inst["_owner"] = "HelmRelease/flux-system/flux-instance"
    objs = [inst, git_root(),
            obj(KS, "Kustomization", "flux-system", "flux-system", {"interval": "10m", "path": "clusters/prod-eu", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{GIT_SHA}")], "FluxInstance/flux-system/flux",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{GIT_SHA}"}),
            obj(KS, "Kustomization", "flux-system", "cluster-vap", {"interval": "10m", "path": "./kubernetes/vap", "prune": True,
                "sourceRef": {"kind": "OCIRepository", "name": "flux-system"}},
                [cond(False, "ArtifactFailed", 'ocirepositories.source.toolkit.fluxcd.io "flux-system" not found')],
                "Kustomization/flux-system/flux-system"),
            obj(KS, "Kustomization", "flux-system", "cluster-apps", {"interval": "10m", "path": "./kubernetes/apps", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}, "dependsOn": [{"name": "cluster-vap"}]},
                [cond(False, "DependencyNotReady", "dependency 'flux-system/cluster-vap' is not ready")],
                "Kustomization/flux-system/flux-system", {"lastAppliedRevision": f"refs/heads/main@sha1:{'0' * 40}"}),
            obj(KS, "Kustomization", "flux-system", "flux-instance", {"interval": "10m", "path": "./kubernetes/flux-instance", "prune": True,
                "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                [cond(msg=f"Applied revision: refs/heads/main@sha1:{'0' * 40}")], "Kustomization/flux-system/cluster-apps",
                {"lastAppliedRevision": f"refs/heads/main@sha1:{'0' * 40}"}),
            obj(SRC, "HelmRepository", "flux-system", "controlplane", {"url": "oci://ghcr.io/controlplaneio-fluxcd/charts", "type": "oci", "interval": "1h"},
                [], "Kustomization/flux-system/flux-instance"),
            obj(HR, "HelmRelease", "flux-system", "flux-instance", {"interval": "30m", "chart": {"spec": {"chart": "flux-instance", "version": "0.33.0",
                "sourceRef": {"kind": "HelmRepository", "name": "controlplane"}}}},
                [cond(msg="Helm upgrade succeeded for release flux-system/flux-instance.v4 with chart flux-instance@0.33.0")],
                "Kustomization/flux-system/flux-instance", {"helmChart": "flux-system/flux-system-flux-instance"}),
            obj(SRC, "HelmChart", "flux-system", "flux-system-flux-instance", {"chart": "flux-instance", "version": "0.33.0",
                "sourceRef": {"kind": "HelmRepository", "name": "controlplane"}},
                [cond(msg="pulled 'flux-instance' chart with version '0.33.0'")], "HelmRelease/flux-system/flux-instance",
                {"artifact": {"revision": "0.33.0"}}),
            ]
    for app in ["cert-manager", "ingress-nginx", "monitoring"]:
        objs.append(obj(KS, "Kustomization", "flux-system", app, {"interval": "10m", "path": f"./kubernetes/apps/{app}", "prune": True,
                        "sourceRef": {"kind": "GitRepository", "name": "flux-system"}},
                        [cond(msg=f"Applied revision: refs/heads/main@sha1:{'0' * 40}")], "Kustomization/flux-system/cluster-apps",
                        {"lastAppliedRevision": f"refs/heads/main@sha1:{'0' * 40}"}))
    rep = report("v2.7.3", "flux-operator", comps,
                 {"id": "kustomization/flux-system", "path": "clusters/prod-eu", "ready": True,
                  "source": "https://github.com/example-org/fleet.git", "status": f"Applied revision: refs/heads/main@sha1:{GIT_SHA}"})
    write("frozen", rep, objs, [])


SCENARIOS = {"homelab-large": homelab_large}

if __name__ == "__main__" and len(sys.argv) > 1:
    # One scenario by name (the others were extended by hand after they were generated).
    for wanted in sys.argv[1:]:
        SCENARIOS[wanted]()
elif __name__ == "__main__":
    demo(); broken(); enterprise_fips(); upstream_bootstrap(); hostile(); operator_mock(); staged(); handover(); homelab(); multitenant(); flux_aio(); flux_aio_switching(); flux_aio_taken_over(); credentials(); helm_storage(); frozen()
