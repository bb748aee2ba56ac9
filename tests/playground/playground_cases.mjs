// The inputs playground_test.mjs types into the page, one or more per kind. Each has non-ASCII
// text (two- to four-byte UTF-8, and a character outside the BMP, two UTF-16 units) before its
// findings, so that a byte offset taken for a UTF-16 index (or the reverse) shows; the JSON
// ones also have escapes inside a string (a policy can hold nothing but ASCII here: a non-ASCII
// entry's A-label is what the WebAssembly build leaves out). `file` is the name the command
// reads the same text
// under; `hosts` are typed into the decision field; `fixAll` clicks "Fix all" (compared with
// boxlint --fix); each of `ones` is a text with exactly one fix, whose button is clicked; each of
// `problems` a text the command cannot check (exit 2), whose line, column and message the page
// must give as the command does; each of `broken` a text that does not parse, whose one finding
// (`rule` at `line`, or none when `rule` is null) the page must list as the command does.
export const cases = [
  {
    name: 'template', kind: 'template', file: 't.json', readAs: 'a template', minFindings: 5, fixAll: true,
    text: String.raw`{
  "name": "Café Tpl",
  "commands": [
    "RUN echo \"h\u00e9llo ☕ 😀\" && pip install flask",
    "WROKDIR /app",
    "pip install x"
  ],
  "cpu_count": 2.5,
  "memory_mb": 4096,
  "network_policy": {"type": "filtered", "allow_out": ["pypi.org"]}
}
`,
    hosts: ['pypi.org', 'files.pythonhosted.org 151.101.0.223'],
    problems: [{ text: '{"name": "é ☕",\n "commands": [1]}\n' }, { text: '{"name": ["é"]}' }],
    ones: [{
      rule: 'invalid-name', unsafe: true,
      text: '{"name": "Mon Modèle ☕", "commands": ["RUN echo \\u00e9t\\u00e9"], "cpu_count": 2, "memory_mb": 2048}\n',
    }, {
      rule: 'allow-without-effect', unsafe: true, // deny_out absent: the member is added
      text: '{\n  "name": "t-1",\n  "commands": ["RUN echo 😀"],\n  "cpu_count": 2,\n  "memory_mb": 2048,\n' +
        '  "network_policy": {\n    "type": "filtered",\n    "allow_out": ["pypi.org"]\n  }\n}\n',
    }],
  },
  {
    name: 'fragment', kind: 'fragment', file: 'x.Dockerfile', readAs: 'a Dockerfile fragment', minFindings: 3,
    fixAll: true,
    text: '# café ☕ 😀\nWROKDIR /app\nRUN apt-get install -y curl # 😀 ok\npip install x\nRUN echo a \\\n',
    ones: [{ rule: 'unknown-instruction', unsafe: false, text: '# 😀 émoji\n  WROKDIR /srv\n' }],
  },
  {
    name: 'python', kind: 'python', file: 'app.py', readAs: 'Python', minFindings: 4, fixAll: true,
    text: `# Déjà vu ☕ 😀
from e2b import Sandbox

tpl = client.code_interpreter.templates.create(
    name="é-tpl",
    commands=["pip install pydantic-ai", "WROKDIR /app"],
    cpu_count=2,
    memory_mb=4096,
)
client.agents.add_code_interpreter("prm_abc", template_id="é-tpl", version=1,
    network_policy={"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []})
`,
    // Python that does not parse is a finding where the file reaches the SDK, and nothing where
    // it cannot.
    broken: [
      { text: 'import budai  # ☕\nx = (1,\n', rule: 'python-syntax', line: 2 },
      { text: 'import budai  # 😀\nx = "\\N{NO SUCH NAME}"\n', rule: 'python-syntax', line: 2 },
      { text: 'import e2b  # ☕\nx = (1,\n', rule: null },
    ],
    ones: [{
      rule: 'allow-without-effect', unsafe: true,
      text: 'import e2b  # ☕ 😀\np = NetworkPolicy(type="filtered", allow_out=["pypi.org"], deny_out=[])\n',
    }],
  },
  {
    name: 'policy', kind: 'policy', file: 'p.json', readAs: 'a NetworkPolicy', minFindings: 2,
    text: String.raw`{
  "type": "filtered",
  "allow_out": [
    "\u0070ypi.org",
    "*.python\u0068osted.org",
    "10.0.0.0/8"
  ],
  "deny_out": ["example.com"]
}
`,
    hosts: ['pypi.org', 'files.pythonhosted.org', '10.1.2.3', 'example.com 93.184.216.34', 'www.example.org',
      '2001:db8::1'],
    ones: [{
      rule: 'allow-without-effect', unsafe: true,
      text: '{"type": "filtered",\n "allow_out": ["pypi.org", "*.pythonhosted.org"],\n "deny_out": ["example.com"]}\n',
    }],
  },
  {
    name: 'binding', kind: 'template', file: 'b.json', readAs: 'an agent binding', minFindings: 3,
    text: '{"template_id": "Ma Tpl ☕", "version": "1", "lifespan_seconds": 1.5e3, "extra": true,\n' +
      ' "network_policy": {"type": "filtered", "allow_out": ["pypi.org"], "deny_out": []}}\n',
    hosts: ['pypi.org'],
  },
  {
    name: 'commands', kind: 'template', file: 'c.json', readAs: 'an array of commands', minFindings: 2, fixAll: true,
    text: '[\n  "RUN echo \\"\\u2603\\" 😀 && apt-get install curl",\n  "WROKDIR /app", "pip install x"\n]\n',
  },
];
