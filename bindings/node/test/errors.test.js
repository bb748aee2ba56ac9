'use strict';
// Node.js bindings: errors, closed objects and bad arguments.
const test = require('node:test');
const assert = require('node:assert/strict');
const boxlint = require('..');
const { GOOD, rulesOf } = require('./support');

test('error handling', async (t) => {
  await t.test('a closed policy throws on use', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['ALL_TRAFFIC'] });
    p.close();
    p.close(); // idempotent
    assert.equal(p.closed, true);
    assert.throws(() => p.decide({ host: 'pypi.org' }), boxlint.ClosedError);
    assert.throws(() => boxlint.checkTemplate({ ...GOOD, network_policy: p }), boxlint.ClosedError);
  });
  await t.test('a closed config throws on use', () => {
    const c = new boxlint.Config();
    c.close();
    assert.throws(() => boxlint.checkCommands(['RUN true'], { config: c }),
      { name: 'ClosedError', message: 'Config is closed' });
  });
  await t.test('Symbol.dispose closes', { skip: typeof Symbol.dispose !== 'symbol' }, () => {
    const p = new boxlint.NetworkPolicy({ type: 'open' });
    p[Symbol.dispose]();
    assert.equal(p.closed, true);
  });
  await t.test('bad types throw TypeError', () => {
    const cases = [
      [() => boxlint.checkCommands('RUN true'), /commands must be an array of strings, not string/],
      [() => boxlint.checkCommands(['RUN true', 3]), /commands\[1\] must be a string, not number/],
      [() => boxlint.checkTemplate({ ...GOOD, cpu_count: '2' }), /cpu_count must be an integer, not string/],
      [() => boxlint.checkTemplate({ ...GOOD, memory_mb: true }), /memory_mb must be an integer/],
      [() => boxlint.checkTemplate({ ...GOOD, name: 7 }), /name must be a string/],
      [() => boxlint.checkTemplate('x'), /template must be an object/],
      [() => boxlint.checkTemplate({ ...GOOD, network_policy: ['pypi.org'] }), /network_policy must be/],
      [() => boxlint.checkTemplate({ ...GOOD, network_policy: { alow_out: [] } }), /unknown key "alow_out"/],
      [() => new boxlint.NetworkPolicy({ type: 'filtered', allow_out: 'pypi.org' }), /allow_out must be an array/],
      [() => new boxlint.NetworkPolicy({ type: 2 }), /type must be a string/],
      [() => new boxlint.NetworkPolicy({ type: 'open' }).decide({ host: 1 }), /host must be a string/],
      [() => boxlint.checkCommands(['RUN true'], { config: {} }), /config must be a boxlint Config/],
      [() => new boxlint.Config({ severities: ['x'] }), /severities must be an object/],
    ];
    for (const [fn, re] of cases) assert.throws(fn, (e) => e instanceof TypeError && re.test(e.message), re.source);
  });
  await t.test('fractional resources are diagnostics, not exceptions', () => {
    assert.deepEqual(rulesOf(boxlint.checkTemplate({ ...GOOD, cpu_count: 2.5, memory_mb: 1e30 })),
      ['invalid-resources', 'invalid-resources']);
    assert.deepEqual(boxlint.checkTemplate({ ...GOOD, cpu_count: 2n }).diagnostics, []);
  });
  await t.test('emit writes the enforcement rules, or refuses', () => {
    const p = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org', '*.pythonhosted.org'], deny_out: ['ALL_TRAFFIC'] });
    const conf = p.emit('dnsmasq', { resolvers: ['198.51.100.53'] }).split('\n');
    assert.ok(conf.includes('server=198.51.100.53'));
    assert.ok(conf.includes('nftset=/pypi.org/4#inet#boxlint#allow4,6#inet#boxlint#allow6'));
    assert.ok(conf.includes('address=/*.pypi.org/'));
    const script = p.emit('nftables', { table: 'sandbox', iifname: 'veth0', resolvers: ['198.51.100.53'] });
    assert.ok(script.includes('table inet sandbox {') && script.includes('iifname != "veth0" accept'));
    assert.throws(() => p.emit('iptables'), RangeError);
    const proxy = p.emit('nginx', { resolvers: ['198.51.100.53'], proxyUser: 'boxlint-proxy' }).split('\n');
    assert.ok(proxy.includes('\t\tpypi.org allow;') && proxy.includes('user boxlint-proxy;'));
    assert.ok(p.emit('nftables', { resolvers: ['198.51.100.53'], proxyUser: 'www-data' }).includes('\t\tudp dport 443 drop'));
    assert.throws(() => p.emit('nginx', { resolvers: ['198.51.100.53'], proxyUser: 'two words' }), RangeError);
    assert.throws(() => p.emit('nftables', { table: 'two words' }), RangeError);
    p.close();
    const q = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org', '10.0.0.0/8'], deny_out: ['ALL_TRAFFIC'] });
    assert.throws(() => q.emit('nftables', { resolvers: ['198.51.100.53'] }), (e) => e instanceof boxlint.PolicyError &&
      e.errors.length === 1 && e.errors[0].rule === 'unenforceable-entry' && e.errors[0].path === 'network_policy.allow_out[0]');
    assert.throws(() => q.emit('nginx', { resolvers: ['198.51.100.53'] }), (e) => e instanceof boxlint.PolicyError &&
      e.errors[0].path === 'network_policy.allow_out[1]');
    q.close();
    const r = new boxlint.NetworkPolicy({ type: 'filtered', allow_out: ['pypi.org'], deny_out: ['ALL_TRAFFIC'] });
    assert.throws(() => r.emit('nftables'), (e) => e instanceof boxlint.PolicyError && // no resolver: DNS would be cut
      e.errors[0].path === 'network_policy.deny_out[0]' && /no resolver given/.test(e.errors[0].message));
    r.close();
  });
  await t.test('decide needs a destination; options are checked', () => {
    const p = new boxlint.NetworkPolicy({ type: 'open' });
    assert.throws(() => p.decide({}), RangeError);
    p.close();
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'open' }, { unmatched: 'maybe' }), RangeError);
    assert.throws(() => new boxlint.NetworkPolicy({ type: 'open' }, { compat: 'aws' }), RangeError);
  });
});
