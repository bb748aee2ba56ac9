'use strict';
// What the tests of the Node.js bindings share. They run against the library built in this tree
// ($BOXLINT_LIBRARY; ctest bindings_node), one file per module of lib/.
const GOOD = {
  name: 'my-py-extra', commands: ['RUN pip install --no-cache-dir pydantic-ai'],
  cpu_count: 2, memory_mb: 4096,
};
const SEED = { type: 'filtered', allow_out: ['pypi.org', '*.pythonhosted.org'], deny_out: [] };
const rulesOf = (r) => r.diagnostics.map((d) => d.rule);

module.exports = { GOOD, SEED, rulesOf };
