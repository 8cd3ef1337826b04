"""Lists the configurable traits (config=True) of the classes jupyterhub_config.py sets, read from the
upstream sources at the versions the hub image bundles. Regenerates src/test/resources/jupyterhub/hub-traits.txt:

    python3 extract_traits.py DIR > ../resources/jupyterhub/hub-traits.txt

DIR holds clones of github.com/jupyterhub/{jupyterhub,kubespawner,oauthenticator,jupyterhub-idle-culler} as
DIR/jupyterhub+<repo>/repo (git directories with their tags).
"""
import ast, subprocess, sys

def source(repo, tag, path):
    return subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], capture_output=True, text=True, check=True).stdout

def configurable(value):
    # Trait(..., config=True) or Trait(...).tag(config=True) (possibly chained)
    node = value
    while isinstance(node, ast.Call):
        if any(k.arg == "config" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords):
            return True
        node = node.func.value if isinstance(node.func, ast.Attribute) else None
    return False

def traits(text, cls):
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            out = set()
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    if configurable(stmt.value):
                        out.add(stmt.targets[0].id)
            return out
    raise SystemExit(f"class {cls} not found")

M = sys.argv[1].rstrip("/") + "/jupyterhub+"
JH, KS, OA = (M + "jupyterhub/repo", "5.5.0"), (M + "kubespawner/repo", "7.0.0"), (M + "oauthenticator/repo", "17.4.0")
def t(src, path, cls): return traits(source(src[0], src[1], path), cls)
spawner = t(JH, "jupyterhub/spawner.py", "Spawner")
auth = t(JH, "jupyterhub/auth.py", "Authenticator")
proxy = t(JH, "jupyterhub/proxy.py", "Proxy")
sections = {
    "JupyterHub": ("jupyterhub 5.5.0 jupyterhub/app.py JupyterHub", t(JH, "jupyterhub/app.py", "JupyterHub")),
    "ConfigurableHTTPProxy": ("jupyterhub 5.5.0 jupyterhub/proxy.py ConfigurableHTTPProxy(Proxy)", proxy | t(JH, "jupyterhub/proxy.py", "ConfigurableHTTPProxy")),
    "Authenticator": ("jupyterhub 5.5.0 jupyterhub/auth.py Authenticator", auth),
    "KubeSpawner": ("jupyterhub-kubespawner 7.0.0 kubespawner/spawner.py KubeSpawner(Spawner of jupyterhub 5.5.0)", spawner | t(KS, "kubespawner/spawner.py", "KubeSpawner")),
    "GenericOAuthenticator": ("oauthenticator 17.4.0 oauthenticator/generic.py GenericOAuthenticator(OAuthenticator(Authenticator of jupyterhub 5.5.0))",
        auth | t(OA, "oauthenticator/oauth2.py", "OAuthenticator") | t(OA, "oauthenticator/generic.py", "GenericOAuthenticator")),
}
print("# Configurable traits (config=True) of the classes jupyterhub_config.py sets, as bundled by the hub image")
print("# quay.io/jupyterhub/k8s-hub:4.4.0 (zero-to-jupyterhub-k8s 4.4.0 images/hub/requirements.txt: jupyterhub==5.5.0,")
print("# jupyterhub-kubespawner==7.0.0, oauthenticator==17.4.0, jupyterhub-idle-culler==1.4.0, traitlets==5.15.1).")
print("# Read from the upstream sources at those tags (class bodies, inherited classes included) by extract_traits.py.")
print("# Format: Section.trait; the idle culler's command-line options as idle-culler.--option")
for name, (src, names) in sections.items():
    print(f"# {name}: {src}")
    for n in sorted(names):
        print(f"{name}.{n}")


def culler_options(text):
    """tornado options: define("cull_every", ...) is --cull-every on the command line."""
    out = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "define" and node.args:
            out.add("--" + node.args[0].value.replace("_", "-"))
    return out


IC = (M + "jupyterhub-idle-culler/repo", "1.4.0")
print("# idle-culler: jupyterhub-idle-culler 1.4.0 jupyterhub_idle_culler/__init__.py (tornado options)")
for n in sorted(culler_options(source(IC[0], IC[1], "jupyterhub_idle_culler/__init__.py"))):
    print(f"idle-culler.{n}")
