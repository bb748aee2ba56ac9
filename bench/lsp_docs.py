"""The documents of bench/lsp_edit.py and tests/lsp/incremental_test.py, generated with a fixed
seed: a 100 KB Python file whose functions create templates and bind them (SDK calls with
findings of most kinds, module-level names, comments), and a 4 KB template."""
import json
import random
def python_file(seed=28, size=100_000):
    r = random.Random(seed)
    pkgs = ["pandas", "numpy", "httpx", "pydantic-ai", "rich", "polars", "scipy", "duckdb"]
    hosts = ["pypi.org", "*.pythonhosted.org", "github.com", "api.openai.com", "1.2.3.4", "10.0.0.0/8", "bad host", "*.example.com"]
    cmds = ["RUN pip install --no-cache-dir {p}", "pip install {p}", "RUN apt-get install -y curl",
            "ENV PYTHONUNBUFFERED=1", "WORKDIR /home/user", "RUN apt-get update && apt-get install -y --no-install-recommends jq && rm -rf /var/lib/apt/lists/*",
            "COPY requirements.txt /app/", "RUN echo {p} > /tmp/{p}.txt", "USER root", "WORKDR /app",
            "RUN curl -fsSL https://example.com/{p}.sh | sh", "ENV API_KEY=sk-{p}0123456789abcdef"]
    out = ['"""Generated: a service that builds its templates and binds them (boxlint bench)."""',
           "import os", "from budai import BudClient", "", 'client = BudClient(api_key=os.environ["BUD_KEY"])',
           'BASE = ["RUN pip install --no-cache-dir uv", "ENV UV_SYSTEM_PYTHON=1"]', 'ALLOW = ["pypi.org", "*.pythonhosted.org"]', ""]
    n = 0
    while sum(len(l) + 1 for l in out) < size:
        n += 1
        p = r.choice(pkgs)
        out.append("")
        out.append("# %d. Template for the %s jobs: keep the image small, pin what matters." % (n, p))
        out.append("def build_%d(retries=%d):" % (n, r.randint(1, 5)))
        out.append('    """Build the %s template and wait for it."""' % p)
        out.append("    attempt = 0")
        out.append("    while attempt < retries:")
        out.append("        attempt += 1  # count the tries")
        k = r.randint(2, 6)
        cl = ",\n".join('            "%s"' % r.choice(cmds).format(p=p) for _ in range(k))
        extra = "BASE + " if r.random() < 0.2 else ""
        out.append("        tpl = client.code_interpreter.templates.create(")
        out.append('            name="%s-%d",' % (p, n))
        out.append("            commands=%s[\n%s,\n            ]," % (extra, cl))
        out.append("            cpu_count=%d," % r.choice([1, 2, 4, 8, 3]))
        out.append("            memory_mb=%d," % r.choice([1024, 2048, 4096, 1000, 8192]))
        out.append("        )")
        out.append("        if tpl.wait_until_ready(timeout=%d):" % r.choice([60, 300, 600]))
        out.append("            break")
        out.append("    return tpl")
        out.append("")
        if r.random() < 0.5:
            hs = ", ".join('"%s"' % r.choice(hosts) for _ in range(r.randint(1, 3)))
            out.append("binding_%d = client.agents.add_code_interpreter(" % n)
            out.append('    "prm_%04d",' % n)
            out.append('    template_id="%s-%d",' % (p, n))
            out.append("    lifespan_seconds=%d," % r.choice([1200, 30, 3600, 100000]))
            if r.random() < 0.3:
                out.append('    network_policy={"type": "filtered", "allow_out": ALLOW, "deny_out": []},')
            else:
                out.append('    network_policy={"type": "filtered", "allow_out": [%s], "deny_out": []},' % hs)
            out.append(")")
        else:
            out.append("for i in range(%d):" % r.randint(2, 9))
            out.append("    print(build_%d(retries=i), i * %d)" % (n, r.randint(2, 99)))
    return "\n".join(out) + "\n"


def template_file(seed=28, size=4_000):
    r = random.Random(seed)
    cmds = ["RUN pip install --no-cache-dir httpx==0.27.%d" , "RUN apt-get install -y curl",
            "ENV STAGE_%d=1", "WORKDIR /srv/app%d", "COPY requirements.txt /app/",
            "RUN echo step %d >> /tmp/log", "pip install pandas==2.%d", "USER app%d",
            "RUN curl -fsSL https://example.com/i%d.sh | sh"]
    t = {"name": "bench-template", "commands": [], "cpu_count": 2, "memory_mb": 4096,
         "network_policy": {"type": "filtered", "allow_out": ["pypi.org", "*.pythonhosted.org"],
                            "deny_out": ["ALL_TRAFFIC"]}}
    while len(json.dumps(t, indent=2)) < size:
        c = r.choice(cmds)
        t["commands"].append(c % r.randint(1, 99) if "%d" in c else c)
    return json.dumps(t, indent=2) + "\n"


def line_starts(text):
    out, i = [0], text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


def language(uri):
    return "python" if uri.endswith(".py") else "json" if uri.endswith(".json") else "plaintext"
