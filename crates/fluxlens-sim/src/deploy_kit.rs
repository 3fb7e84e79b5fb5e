//! The deploy kit's pieces agree with each other (#30): the Kubernetes manifest runs the image
//! the way the Dockerfile built it (user, writable directory, port), sets only variables the
//! entrypoint reads, names the image the kustomization parameterises, and the Ingress example
//! reaches the Service. The entrypoint itself is run as the image's user by
//! `e2e/nginx.test.mjs`; the image by `scripts/image-test.sh` where a container engine runs.

use serde::Deserialize;
use serde_yaml_ng::Value;
use std::path::Path;

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(rel)).unwrap()
}

fn docs(rel: &str) -> Vec<Value> {
    serde_yaml_ng::Deserializer::from_str(&read(rel))
        .map(|d| Value::deserialize(d).unwrap())
        .collect()
}

fn of_kind<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter().find(|d| d["kind"] == kind).unwrap()
}

/// `ENV NAME=value` of the Dockerfile's runtime stage.
fn docker_env(name: &str) -> String {
    let file = read("deploy/Dockerfile");
    let at = file.find(&format!("{name}=")).unwrap() + name.len() + 1;
    file[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_matches('"')
        .to_string()
}

#[test]
fn the_manifest_runs_the_image_as_it_was_built() {
    let k8s = docs("deploy/kubernetes/fluxlens.yaml");
    let pod = &of_kind(&k8s, "Deployment")["spec"]["template"]["spec"];
    let c = &pod["containers"][0];
    let dockerfile = read("deploy/Dockerfile");
    assert!(
        dockerfile.contains("\nUSER 101:101\n"),
        "the image runs as 101"
    );
    assert_eq!(pod["securityContext"]["runAsUser"].as_u64(), Some(101));
    assert_eq!(pod["securityContext"]["runAsNonRoot"].as_bool(), Some(true));
    let sc = &c["securityContext"];
    assert_eq!(sc["readOnlyRootFilesystem"].as_bool(), Some(true));
    assert_eq!(sc["allowPrivilegeEscalation"].as_bool(), Some(false));
    // The one directory the entrypoint writes is a mounted volume.
    let run = docker_env("FLUXLENS_RUN_DIR");
    let mounted: Vec<&str> = c["volumeMounts"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|m| m["mountPath"].as_str())
        .collect();
    assert!(
        mounted.iter().any(|m| run.starts_with(m)),
        "{run} is not under a mounted volume: {mounted:?}"
    );
    let port = c["ports"][0]["containerPort"].as_u64().unwrap();
    assert_eq!(port.to_string(), docker_env("FLUXLENS_LISTEN"));
}

#[test]
fn the_config_sets_only_what_the_entrypoint_reads() {
    let k8s = docs("deploy/kubernetes/fluxlens.yaml");
    let entrypoint = read("deploy/docker-entrypoint.sh");
    let data = of_kind(&k8s, "ConfigMap")["data"].as_mapping().unwrap();
    for (k, v) in data {
        let k = k.as_str().unwrap();
        assert!(entrypoint.contains(&format!("${{{k}:-")), "{k} is not read");
        assert!(
            !v.as_str().unwrap().contains(';'),
            "{k}: the entrypoint refuses ;"
        );
    }
    let mode = data[&Value::from("FLUXLENS_MODE")].as_str().unwrap();
    assert!(entrypoint.contains("  standalone|beside-operator) ;;"));
    assert!(["standalone", "beside-operator"].contains(&mode));
    // Both modes' configs are rendered into the image.
    let render = read("deploy/render-image.sh");
    for m in ["standalone", "beside-operator"] {
        assert!(
            render.contains(&format!("{m}.conf.in")),
            "{m} is not rendered"
        );
    }
}

#[test]
fn the_image_name_is_the_kustomization_parameter_and_the_ingress_reaches_the_service() {
    let k8s = docs("deploy/kubernetes/fluxlens.yaml");
    let kustomization = docs("deploy/kubernetes/kustomization.yaml");
    let image = of_kind(&k8s, "Deployment")["spec"]["template"]["spec"]["containers"][0]["image"]
        .as_str()
        .unwrap()
        .to_string();
    let images = kustomization[0]["images"].as_sequence().unwrap();
    assert!(images.iter().any(|i| i["name"].as_str() == Some(&image)));
    assert_eq!(
        kustomization[0]["resources"][0].as_str(),
        Some("fluxlens.yaml")
    );
    let ingress = docs("deploy/kubernetes/ingress.yaml");
    let svc = of_kind(&k8s, "Service");
    let backend =
        &of_kind(&ingress, "Ingress")["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"];
    assert_eq!(backend["name"], svc["metadata"]["name"]);
    assert_eq!(backend["port"]["name"], svc["spec"]["ports"][0]["name"]);
    assert_eq!(
        of_kind(&ingress, "Ingress")["metadata"]["namespace"],
        svc["metadata"]["namespace"]
    );
}
