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
    assert!(entrypoint.contains("  standalone|beside-operator|fleet) ;;"));
    assert!(["standalone", "beside-operator"].contains(&mode));
    // The fleet's config is rendered at start, from what the image carries.
    let dockerfile = read("deploy/Dockerfile");
    assert!(dockerfile.contains("COPY deploy/render.py deploy/fleet.py /usr/share/fluxlens-kit/"));
    assert!(dockerfile.contains("COPY deploy/nginx/ /usr/share/fluxlens-kit/nginx/"));
    assert!(dockerfile.contains("python3 python3-yaml"));
    assert!(entrypoint.contains("kit=${FLUXLENS_KIT_DIR:-/usr/share/fluxlens-kit}"));
    // Both one-cluster modes' configs are rendered into the image.
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

/// Runs `deploy/render.py --fleet` on a fleet file's text: the config, or the refusal.
fn render_fleet(text: &str) -> Result<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = std::env::temp_dir().join(format!("fluxlens-kit-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><script>1</script>").unwrap();
    let ext = if text.trim_start().starts_with('{') {
        "json"
    } else {
        "yaml"
    };
    let file = dir.join(format!("fleet-{}.{ext}", text.len()));
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new("python3")
        .arg(root.join("deploy/render.py"))
        .args([
            "--dist",
            dir.to_str().unwrap(),
            "--fleet",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn the_fleet_kit_forwards_each_clusters_reads_only_and_publishes_no_upstream() {
    let conf = render_fleet(
        r#"{"clusters":[{"name":"prod-eu","url":"http://10.0.1.20:9080","labels":{"wave":2},"timeout":12},
        {"name":"lab","url":"https://flux.lab.internal/web","ui":"https://flux.lab.example",
         "render":"/renders/lab.yaml","revision":"main@sha1:0a1b2c3d4e5f"}]}"#,
    )
    .unwrap();
    // The renders the file names are files, a missing one a 404 (never the app's page).
    assert!(conf.contains("location ^~ /renders/ {\n        alias /etc/fluxlens/renders/;"));
    for name in ["prod-eu", "lab"] {
        // One exact location per allowed endpoint, its one method (api/mod.rs pins the same
        // list against the standalone template).
        let prefix = format!("location = /clusters/{name}/api/");
        let mut forwarded: Vec<(String, String)> = Vec::new();
        let mut lines = conf.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if let Some(path) = line
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(" {"))
            {
                let method = lines
                    .next()
                    .and_then(|l| l.strip_prefix("limit_except "))
                    .and_then(|l| l.split_whitespace().next())
                    .unwrap_or("ANY");
                forwarded.push((method.to_string(), format!("/api/{path}")));
            }
        }
        let mut allowed: Vec<(String, String)> = fluxlens_core::wire::ALLOWED_ENDPOINTS
            .iter()
            .map(|(m, p)| (m.to_string(), p.to_string()))
            .collect();
        forwarded.sort();
        allowed.sort();
        assert_eq!(forwarded, allowed, "{name}");
        assert!(conf.contains(&format!("location ^~ /clusters/{name}/api/ {{")));
        assert!(conf.contains(&format!("proxy_cookie_path / /clusters/{name}/;")));
    }
    assert!(conf.contains("proxy_pass https://flux.lab.internal/web/api/v1/report;"));
    assert!(conf.contains("proxy_read_timeout 12s;") && conf.contains("proxy_read_timeout 30s;"));
    assert!(conf.contains("proxy_set_header Cookie \"\";"));
    assert!(conf.contains("proxy_set_header Authorization \"\";"));
    let json_line = conf
        .lines()
        .find(|l| l.trim_start().starts_with("return 200 '"))
        .unwrap();
    let json = json_line
        .trim()
        .trim_start_matches("return 200 '")
        .trim_end_matches("';");
    let list = fluxlens_core::fleet::clusters::parse(json).unwrap();
    assert_eq!(list.clusters.len(), 2);
    assert_eq!(list.clusters[0].labels["wave"], "2");
    assert_eq!(
        list.clusters[1].ui.as_deref(),
        Some("https://flux.lab.example")
    );
    assert_eq!(
        list.clusters[1].render.as_deref(),
        Some("/renders/lab.yaml")
    );
    assert_eq!(
        list.clusters[1].revision.as_deref(),
        Some("main@sha1:0a1b2c3d4e5f")
    );
    assert_eq!(list.clusters[0].render, None);
    for leak in ["10.0.1.20", "flux.lab.internal", "timeout", "url"] {
        assert!(!json.contains(leak), "{leak} in {json}");
    }
}

#[test]
fn the_fleet_kit_refuses_what_could_change_the_config_with_why() {
    for (fleet, why) in [
        (
            r#"{"clusters":[{"name":"a;b","url":"http://x"}]}"#,
            "not a DNS label",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x; return 200 'pwned'"}]}"#,
            "url must be",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://user:pw@x"}]}"#,
            "url must be",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","labels":{"k":"it's"}}]}"#,
            "not a Kubernetes label",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","labels":{"k":"$host"}}]}"#,
            "not a Kubernetes label",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","timeout":0}]}"#,
            "timeout",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","ui":"javascript:alert(1)"}]}"#,
            "ui must be",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x"},{"name":"a","url":"http://y"}]}"#,
            "listed twice",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","render":"/api/v1/resources"}]}"#,
            "render must be",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","render":"/renders/../index.html"}]}"#,
            "render must be",
        ),
        (
            r#"{"clusters":[{"name":"a","url":"http://x","revision":"main"}]}"#,
            "revision must be",
        ),
        (r#"{"clusters":[]}"#, "no 'clusters' list"),
        ("{", "not valid JSON"),
    ] {
        let err = render_fleet(fleet).unwrap_err();
        assert!(err.contains(why), "{fleet}: {err}");
    }
}

#[test]
fn the_fleet_overlay_runs_fleet_mode_with_the_file_where_the_entrypoint_reads_it() {
    let k = docs("deploy/kubernetes-fleet/kustomization.yaml");
    let k = &k[0];
    assert_eq!(k["resources"][0], "../kubernetes");
    let generated = &k["configMapGenerator"][0];
    assert_eq!(generated["files"][0], "fleet.yaml");
    let patches: Vec<&str> = k["patches"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|p| p["patch"].as_str().unwrap())
        .collect();
    assert!(
        patches[0].contains("path: /data/FLUXLENS_MODE") && patches[0].contains("value: fleet")
    );
    // Mounted at the entrypoint's default fleet file's directory.
    let entrypoint = read("deploy/docker-entrypoint.sh");
    assert!(entrypoint.contains("file=${FLUXLENS_FLEET_FILE:-/etc/fluxlens/fleet/fleet.yaml}"));
    assert!(patches[1].contains("mountPath: /etc/fluxlens/fleet"));
    assert!(patches[1].contains(&format!("name: {}", generated["name"].as_str().unwrap())));
    // The renders, optional, where the entrypoint serves them from by default.
    assert!(entrypoint.contains("renders=${FLUXLENS_RENDERS_DIR:-/etc/fluxlens/renders}"));
    assert!(patches[1].contains("mountPath: /etc/fluxlens/renders"));
    assert!(patches[1].contains("name: fluxlens-renders, optional: true"));
    // The example fleet file renders.
    let conf = render_fleet(&read("deploy/kubernetes-fleet/fleet.yaml")).unwrap();
    assert_eq!(conf.matches("    # cluster ").count(), 3);
}

#[test]
fn the_ingress_example_signs_in_before_anything_reaches_fluxlens() {
    // #50: without an authentication block the operator reads with its own service account
    // (FO report.go `GetReport`: no impersonation), so the example never exposes it bare.
    let ingress = docs("deploy/kubernetes/ingress.yaml");
    let proxy = docs("deploy/kubernetes/oauth2-proxy.yaml");
    let app = ingress
        .iter()
        .find(|d| d["metadata"]["name"] == "fluxlens")
        .unwrap();
    let notes = &app["metadata"]["annotations"];
    let auth_url = notes["nginx.ingress.kubernetes.io/auth-url"]
        .as_str()
        .unwrap();
    let svc = of_kind(&proxy, "Service");
    let port = svc["spec"]["ports"][0]["port"].as_u64().unwrap();
    assert_eq!(
        auth_url,
        format!(
            "http://{}.{}.svc.cluster.local:{port}/oauth2/auth",
            svc["metadata"]["name"].as_str().unwrap(),
            svc["metadata"]["namespace"].as_str().unwrap()
        )
    );
    let signin = notes["nginx.ingress.kubernetes.io/auth-signin"]
        .as_str()
        .unwrap();
    assert!(signin.starts_with("https://$host/oauth2/start"), "{signin}");
    // oauth2-proxy's own paths on the same host, to its Service.
    let own = ingress
        .iter()
        .find(|d| d["metadata"]["name"] == "fluxlens-oauth2")
        .unwrap();
    assert_eq!(
        own["spec"]["rules"][0]["host"],
        app["spec"]["rules"][0]["host"]
    );
    let path = &own["spec"]["rules"][0]["http"]["paths"][0];
    assert_eq!(path["path"], "/oauth2");
    assert_eq!(path["backend"]["service"]["name"], svc["metadata"]["name"]);
    // The proxy answers auth requests only (static 202) and runs as the kit's pods do.
    let deploy = of_kind(&proxy, "Deployment");
    let c = &deploy["spec"]["template"]["spec"]["containers"][0];
    let args: Vec<&str> = c["args"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert!(args.contains(&"--upstream=static://202") && args.contains(&"--provider=oidc"));
    assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(
        deploy["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"],
        true
    );
    // `kubectl apply -k deploy/kubernetes` exposes nothing: no Ingress in the kustomization.
    let k = docs("deploy/kubernetes/kustomization.yaml");
    let resources: Vec<&str> = k[0]["resources"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert_eq!(resources, ["fluxlens.yaml"]);
}
