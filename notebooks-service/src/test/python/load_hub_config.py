"""Loads a generated jupyterhub_config.py the way JupyterHub does (traitlets' PyFileConfigLoader: the
file runs with get_config() returning the Config it fills) and reports what it set.

    python3 load_hub_config.py CONFIG
        prints {"loader": ..., "oauthenticator": ..., "traits": {"Section": {"trait": value}}} as JSON
    python3 load_hub_config.py CONFIG check-allowed GRANTS_FILE USERNAME GROUPS_JSON ADMIN
        runs the config's LakehouseAuthenticator.check_allowed for that sign-in, prints true or false
    python3 load_hub_config.py CONFIG own-pod
        runs the config's modify_pod_hook on a pod, prints the owner references it set as JSON

The environment must name an issuer (OIDC_ISSUER), as the hub's does. Without traitlets a plain
recorder stands in for Config; without oauthenticator a stub GenericOAuthenticator stands in, whose
check_allowed is OAuthenticator 17.4.0's when neither allow_all, allowed_users nor allowed_groups
is set: only administrators.
"""
import asyncio
import json
import logging
import sys
import types


class Recorder(dict):
    """c.Section.trait = value, recorded (stands in for traitlets' Config)."""

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.setdefault(name, Recorder())

    def __setattr__(self, name, value):
        self[name] = value


def config_object():
    try:
        from traitlets.config import Config
        import traitlets
        return Config(), "traitlets " + traitlets.__version__
    except ImportError:
        return Recorder(), "recorder"


def oauthenticator():
    try:
        import oauthenticator.generic  # noqa: F401 - the real one, when installed
        import oauthenticator as real
        return "oauthenticator " + real.__version__
    except ImportError:
        pass

    class GenericOAuthenticator:
        log = logging.getLogger("GenericOAuthenticator")

        async def check_allowed(self, username, auth_model):
            return bool(auth_model and auth_model.get("admin"))

    package = types.ModuleType("oauthenticator")
    generic = types.ModuleType("oauthenticator.generic")
    generic.GenericOAuthenticator = GenericOAuthenticator
    package.generic = generic
    sys.modules["oauthenticator"] = package
    sys.modules["oauthenticator.generic"] = generic
    return "stub"


def load(path):
    config, loader = config_object()
    namespace = {"c": config, "get_config": lambda: config, "__file__": path, "__name__": "__main__"}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), namespace)
    return config, loader, namespace


def plain(value):
    if isinstance(value, type):
        return "<class " + value.__name__ + ">"
    if callable(value):
        return "<function " + value.__name__ + ">"
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def own_pod(config):
    """The hook on a pod object with KubeSpawner's attribute names (kubernetes_asyncio stubbed if absent)."""
    try:
        import kubernetes_asyncio.client.models  # noqa: F401
    except ImportError:
        class V1OwnerReference:
            def __init__(self, **kwargs):
                self.__dict__.update(kwargs)

        for name in ("kubernetes_asyncio", "kubernetes_asyncio.client", "kubernetes_asyncio.client.models"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["kubernetes_asyncio.client.models"].V1OwnerReference = V1OwnerReference
    pod = types.SimpleNamespace(metadata=types.SimpleNamespace(owner_references=None))
    pod = config["KubeSpawner"]["modify_pod_hook"](None, pod)
    return [{k: getattr(r, k) for k in ("api_version", "kind", "name", "uid")} for r in pod.metadata.owner_references]


def main(argv):
    auth = oauthenticator()
    config, loader, namespace = load(argv[1])
    if len(argv) > 2 and argv[2] == "check-allowed":
        grants, username, groups, admin = argv[3], argv[4], json.loads(argv[5]), argv[6] == "true"
        namespace["GRANTS_FILE"] = grants
        authenticator = namespace["LakehouseAuthenticator"]()
        model = {"name": username, "admin": admin, "auth_state": {"oauth_user": {"groups": groups}}}
        print("true" if asyncio.run(authenticator.check_allowed(username, model)) else "false")
        return
    if len(argv) > 2 and argv[2] == "own-pod":
        print(json.dumps(own_pod(config)))
        return
    traits = {section: {name: plain(v) for name, v in values.items()} for section, values in config.items()}
    print(json.dumps({"loader": loader, "oauthenticator": auth, "traits": traits}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv)
