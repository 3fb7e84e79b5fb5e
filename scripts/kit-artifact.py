#!/usr/bin/env python3
"""The deploy kit as a Flux OCI artifact, and its check.

  scripts/kit-artifact.py --image NAME@sha256:… --out DIR [--tag vX.Y.Z] [--revision REV]
                                        write an OCI image layout
  scripts/kit-artifact.py --image NAME@sha256:… --files DIR
                                        write the kit's files (what `flux push artifact --path` takes)
  scripts/kit-artifact.py --test        build one and check it

A kit names the image it runs by digest (--image): the release workflow builds and signs the image,
then pins that digest in the kit's kustomization before it pushes and signs the kit, so a cluster
that verifies the kit runs exactly the image the same release built. A tag alone is refused.

The artifact is what `flux push artifact oci://…/fluxlens-kit:<tag> --path=deploy --source=…
--revision=…` pushes: an OCI image manifest whose config has the media type
application/vnd.cncf.flux.config.v1+json and whose one layer is a tar+gzip of the kit
(application/vnd.cncf.flux.content.v1.tar+gzip), annotated with its source, revision and time.
Written as an OCI image layout (oci-layout, index.json, blobs/sha256/…), it can be pushed as it
is (`oras cp --from-oci-layout DIR:<tag> ghcr.io/…/fluxlens-kit:<tag>`, or `crane push DIR`),
then signed (`cosign sign --yes ghcr.io/…/fluxlens-kit@<digest>` in the release workflow, keyless).
The layer holds kubernetes/ and kubernetes-fleet/ at its root, the paths deploy/flux/ points at.

--test checks what can be checked without a registry or a cluster: the layout's digests and
sizes, the media types and annotations, a second build hashing the same, and deploy/flux's
Kustomizations applied to the artifact's own files (their images and JSON patches land on
objects and paths that exist, and give the mode and mounts they promise). Not checked here: a
push, keyless signing and verification (they need a registry and an OIDC token), and Flux's
own kustomize and template rendering.
"""

import argparse
import copy
import gzip
import hashlib
import io
import json
import re
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KIT = ["kubernetes", "kubernetes-fleet"]
CONFIG_TYPE = "application/vnd.cncf.flux.config.v1+json"
LAYER_TYPE = "application/vnd.cncf.flux.content.v1.tar+gzip"
MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json"
# A fixed time: the artifact of one tree is the same bytes (its digest is what is signed).
EPOCH_TIME = "1970-01-01T00:00:00Z"


DIGEST_REF = re.compile(r"^([a-z0-9.-]+(?::[0-9]+)?/[a-z0-9._/-]+)@(sha256:[0-9a-f]{64})$")


def pin_image(kustomization, image):
    """The kustomization's `fluxlens` image entry pinned to `name@sha256:…` (newName and
    digest, no tag); refuses a reference that is not pinned by digest."""
    m = DIGEST_REF.match(image or "")
    assert m, f"the kit runs an image pinned by digest (NAME@sha256:<64 hex>), not {image!r}"
    name, digest = m.groups()
    entry = re.compile(r"(  - name: fluxlens\n)    newName: \S+\n    newTag: \S+\n")
    assert entry.search(kustomization), "deploy/kubernetes/kustomization.yaml has no fluxlens image entry"
    return entry.sub(lambda e: f"{e.group(1)}    newName: {name}\n    digest: {digest}\n", kustomization)


def kit_files(image):
    """The kit's files (path under deploy/ → bytes), its image pinned by digest."""
    files = {}
    for top in KIT:
        for path in sorted((ROOT / "deploy" / top).rglob("*")):
            if path.is_file():
                files[str(path.relative_to(ROOT / "deploy"))] = path.read_bytes()
    k = "kubernetes/kustomization.yaml"
    files[k] = pin_image(files[k].decode(), image).encode()
    return files


def layer_bytes(image):
    """The kit as a sorted, owner- and time-free tar+gzip."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in sorted(kit_files(image).items()):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            info.uid = info.gid = 0
            tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", fileobj=out, mode="wb", mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def blob(layout, data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    path = layout / "blobs" / "sha256" / digest.split(":")[1]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {"digest": digest, "size": len(data)}


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def build(layout, tag, revision, image):
    ws = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]
    layout.mkdir(parents=True, exist_ok=True)
    config = {"mediaType": CONFIG_TYPE, **blob(layout, b"{}")}
    layer = {"mediaType": LAYER_TYPE, **blob(layout, layer_bytes(image))}
    manifest = {
        "schemaVersion": 2,
        "mediaType": MANIFEST_TYPE,
        "config": config,
        "layers": [layer],
        "annotations": {
            "org.opencontainers.image.created": EPOCH_TIME,
            "org.opencontainers.image.source": ws["repository"],
            "org.opencontainers.image.revision": revision,
        },
    }
    m = {"mediaType": MANIFEST_TYPE, **blob(layout, canonical(manifest))}
    m["annotations"] = {"org.opencontainers.image.ref.name": tag}
    (layout / "oci-layout").write_text(json.dumps({"imageLayoutVersion": "1.0.0"}))
    (layout / "index.json").write_text(json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": [m]}, indent=2))
    return m["digest"]


def read_blob(layout, d):
    data = (layout / "blobs" / "sha256" / d["digest"].split(":")[1]).read_bytes()
    assert "sha256:" + hashlib.sha256(data).hexdigest() == d["digest"], f"{d['digest']}: content differs"
    assert len(data) == d["size"], f"{d['digest']}: size {len(data)}, descriptor {d['size']}"
    return data


def verify_layout(layout):
    """The layout as Flux and a registry would read it; returns the kit's files."""
    assert json.loads((layout / "oci-layout").read_text())["imageLayoutVersion"] == "1.0.0"
    index = json.loads((layout / "index.json").read_text())
    (entry,) = index["manifests"]
    assert entry["mediaType"] == MANIFEST_TYPE
    manifest = json.loads(read_blob(layout, entry))
    assert manifest["schemaVersion"] == 2 and manifest["mediaType"] == MANIFEST_TYPE
    assert manifest["config"]["mediaType"] == CONFIG_TYPE, manifest["config"]
    assert len(manifest["layers"]) == 1 and manifest["layers"][0]["mediaType"] == LAYER_TYPE
    notes = manifest["annotations"]
    for key in ("org.opencontainers.image.source", "org.opencontainers.image.revision", "org.opencontainers.image.created"):
        assert notes.get(key), f"annotation {key} missing"
    read_blob(layout, manifest["config"])
    files = {}
    with tarfile.open(fileobj=io.BytesIO(read_blob(layout, manifest["layers"][0])), mode="r:gz") as tar:
        for m in tar.getmembers():
            assert not m.name.startswith(("/", "..")) and ".." not in m.name.split("/"), m.name
            files[m.name] = tar.extractfile(m).read().decode()
    for top in KIT:
        assert f"{top}/kustomization.yaml" in files, f"{top}/ is not in the artifact"
    return files


# --- deploy/flux's Kustomizations applied to the artifact's files ---------------------------

def pointer(doc, path, create_last=False):
    """The parent container and the last key of a JSON pointer (RFC 6901) in `doc`."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in path.lstrip("/").split("/")]
    node = doc
    for p in parts[:-1]:
        node = node[int(p)] if isinstance(node, list) else node[p]
    return node, parts[-1]


def json_patch(doc, ops):
    """RFC 6902 add and replace: the ops the examples use; a path that is not there fails."""
    for op in ops:
        parent, key = pointer(doc, op["path"])
        if op["op"] == "replace":
            if isinstance(parent, list):
                parent[int(key)] = op["value"]
            else:
                assert key in parent, f"replace {op['path']}: nothing there"
                parent[key] = op["value"]
        elif op["op"] == "add":
            if isinstance(parent, list):
                parent.append(op["value"]) if key == "-" else parent.insert(int(key), op["value"])
            else:
                parent[key] = op["value"]
        else:
            raise AssertionError(f"op {op['op']} is not used by the examples")


def kustomize(files, spec):
    """A Flux Kustomization's `path`, `images` and `patches` over the artifact's files."""
    import yaml

    path = spec["path"].strip("./")
    kustomization = yaml.safe_load(files[f"{path}/kustomization.yaml"])
    if path == "kubernetes-fleet":
        # The hub builds on ../kubernetes: its image entry comes from there.
        kustomization.setdefault("images", yaml.safe_load(files["kubernetes/kustomization.yaml"]).get("images", []))
    # The kit's own images (its kustomization), then the Flux Kustomization's on top.
    spec = {**spec, "images": kustomization.get("images", []) + spec.get("images", [])}
    objects = []
    for res in kustomization["resources"]:
        if res == "../kubernetes":
            objects += [d for r in yaml.safe_load(files["kubernetes/kustomization.yaml"])["resources"]
                        for d in yaml.safe_load_all(files[f"kubernetes/{r}"]) if d]
            continue
        objects += [d for d in yaml.safe_load_all(files[f"{path}/{res}"]) if d]
    for img in spec.get("images", []):
        hit = 0
        for o in objects:
            for c in o.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
                if c["image"].split(":")[0].split("@")[0] == img["name"]:
                    at = f"@{img['digest']}" if "digest" in img else f":{img['newTag']}"
                    c["image"] = f"{img.get('newName', img['name'])}{at}"
                    hit += 1
        assert hit, f"image {img['name']} names no container"
    for p in spec.get("patches", []):
        targets = [o for o in objects if o["kind"] == p["target"]["kind"] and o["metadata"]["name"] == p["target"]["name"]]
        assert len(targets) == 1, f"patch target {p['target']} matches {len(targets)} objects"
        json_patch(targets[0], yaml.safe_load(p["patch"]))
    return objects


def template_free(text):
    """A ResourceSet template with each `<< … >>` action made a plain value, and range lines gone,
    so that its YAML can be read (the template itself is rendered by the operator)."""
    lines = [l for l in text.splitlines() if not re.match(r"^\s*<<-?\s*(range|end|if|else)", l)]
    return re.sub(r"<<[^>]*>>", "templated", "\n".join(lines))


def check_examples(files):
    import yaml

    flux = ROOT / "deploy" / "flux"
    source = yaml.safe_load((flux / "kit-source.yaml").read_text())
    ident = source["spec"]["verify"]["matchOIDCIdentity"][0]
    assert source["spec"]["verify"]["provider"] == "cosign"
    ws = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]
    repo_path = ws["repository"].removeprefix("https://")
    assert re.escape(repo_path).replace("\\/", "/") in ident["subject"].replace("\\/", "/"), ident["subject"]
    assert ident["subject"].endswith("$") and ident["subject"].startswith("^"), "the identity is anchored"
    assert "@refs/tags/v" in ident["subject"], "only a release tag's workflow signs"

    single = yaml.safe_load((flux / "fluxlens.yaml").read_text())
    assert single["spec"]["sourceRef"] == {"kind": "OCIRepository", "name": source["metadata"]["name"]}
    objs = kustomize(files, single["spec"])
    cm = next(o for o in objs if o["kind"] == "ConfigMap")
    dep = next(o for o in objs if o["kind"] == "Deployment")
    # The image is the one the kit pins by digest; deploy/flux sets no tag of its own over it.
    assert "images" not in single["spec"], "deploy/flux/fluxlens.yaml must not override the kit's pinned digest"
    assert dep["spec"]["template"]["spec"]["containers"][0]["image"] == TEST_IMAGE, dep["spec"]["template"]["spec"]["containers"][0]["image"]
    assert cm["data"]["FLUXLENS_MODE"] == "standalone" and cm["data"]["FLUXLENS_API"].startswith("http")
    assert not any(o["kind"] == "Ingress" for o in objs), "the Flux example exposes nothing by itself"

    rset = yaml.safe_load((flux / "fleet-resourceset.yaml").read_text())
    rendered = [d for d in yaml.safe_load_all(template_free(rset["spec"]["resourcesTemplate"])) if d]
    fleet_cm = next(d for d in rendered if d["kind"] == "ConfigMap")
    hub = next(d for d in rendered if d["kind"] == "Kustomization")
    assert hub["spec"]["sourceRef"]["name"] == source["metadata"]["name"]
    objs = kustomize(files, hub["spec"])
    cm = next(o for o in objs if o["kind"] == "ConfigMap")
    pod = next(o for o in objs if o["kind"] == "Deployment")["spec"]["template"]
    assert pod["spec"]["containers"][0]["image"] == TEST_IMAGE, "the hub runs the kit's pinned image"
    assert cm["data"]["FLUXLENS_MODE"] == "fleet"
    mounted = {v["name"]: v for v in pod["spec"]["volumes"]}
    assert mounted["fleet"]["configMap"]["name"] == fleet_cm["metadata"]["name"]
    mount = next(m for m in pod["spec"]["containers"][0]["volumeMounts"] if m["name"] == "fleet")
    assert mount["mountPath"] == "/etc/fluxlens/fleet", "where the entrypoint reads the fleet file"
    assert "fleet.yaml" in fleet_cm["data"]
    assert all({"name", "url"} <= set(c) for c in rset["spec"]["inputs"][0]["clusters"])


TEST_IMAGE = "ghcr.io/fluxlens/fluxlens@sha256:" + "ab" * 32


def test():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a", Path(tmp) / "b"
        rev = "main@sha1:0000000000000000000000000000000000000000"
        da = build(a, "v0.0.0-test", rev, TEST_IMAGE)
        db = build(b, "v0.0.0-test", rev, TEST_IMAGE)
        for unpinned in ["ghcr.io/fluxlens/fluxlens:v0.1.0", "fluxlens", "ghcr.io/fluxlens/fluxlens@sha256:abc"]:
            try:
                kit_files(unpinned)
            except AssertionError:
                continue
            sys.exit(f"kit-artifact: a kit was built with an image not pinned by digest: {unpinned}")
        assert da == db, "two builds of one tree differ"
        files = verify_layout(a)
        check_examples(files)
        # The check must be able to fail: a layer whose bytes are not its digest is refused.
        manifest = json.loads(read_blob(a, json.loads((a / "index.json").read_text())["manifests"][0]))
        layer = a / "blobs" / "sha256" / manifest["layers"][0]["digest"].split(":")[1]
        layer.write_bytes(layer.read_bytes() + b"x")
        try:
            verify_layout(a)
        except AssertionError:
            pass
        else:
            sys.exit("kit-artifact: a corrupted layer passed")
        broken = copy.deepcopy({"path": "./kubernetes", "patches": [{"target": {"kind": "ConfigMap", "name": "fluxlens"}, "patch": "- op: replace\n  path: /data/FLUXLENS_NOPE\n  value: x\n"}]})
        try:
            kustomize(files, broken)
        except AssertionError:
            pass
        else:
            sys.exit("kit-artifact: a patch of a path that is not there passed")
    print(f"kit-artifact: OCI layout valid and reproducible ({da[:19]}…), deploy/flux applied to its files; "
          "not checked here: a registry push, keyless signing, Flux's own rendering")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--tag")
    ap.add_argument("--revision", default="")
    ap.add_argument("--image", help="the image the kit runs, NAME@sha256:…")
    ap.add_argument("--files", help="write the kit's files here instead of a layout")
    ap.add_argument("--test", action="store_true")
    a = ap.parse_args()
    if a.test:
        return test()
    if not (a.out or a.files) or not a.image:
        ap.error("--image with --out or --files, or --test")
    if a.files:
        for name, data in kit_files(a.image).items():
            (Path(a.files) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(a.files) / name).write_bytes(data)
        return print(f"kit-artifact: the kit's files in {a.files}, running {a.image}")
    crate = tomllib.loads((ROOT / "crates/fluxlens-check/Cargo.toml").read_text())["package"]
    tag = a.tag or f"v{crate['version']}"
    digest = build(Path(a.out), tag, a.revision or tag, a.image)
    verify_layout(Path(a.out))
    print(f"kit-artifact: {a.out} ({tag}, {digest})")


if __name__ == "__main__":
    main()
