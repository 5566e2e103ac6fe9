// The quickstart tracker as `quickstart mcp` serves it: generated tools, their schemas and typed
// decoders, reached by the official clients.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { configurations, connect, negotiated, quickstart, serveAndConnect, startHttp } from './clients.mjs';

assert.ok(quickstart, 'PTC_QUICKSTART must name the quickstart binary');

for (const configuration of [configurations[0], configurations[2]]) {
  for (const transportName of ['stdio', 'http']) {
    describe(`quickstart: ${configuration.name} over ${transportName}`, () => {
      const served = serveAndConnect(quickstart, configuration, transportName);

      test('lists the generated tools', async () => {
        assert.equal(negotiated(served.client), configuration.version);
        const { tools } = await served.client.listTools();
        const names = tools.map((t) => t.name);
        assert.ok(names.includes('suggest_priority'), names.join(','));
        assert.ok(names.includes('create_issue'), names.join(','));
        // The PTC_* markers of tracker.hpp, read by ptc-gen, as hosts see them.
        const suggest = tools.find((t) => t.name === 'suggest_priority');
        assert.equal(suggest.title, 'Suggest a priority');
        assert.deepEqual(suggest.annotations, {
          title: 'Suggest a priority', readOnlyHint: true, destructiveHint: false, idempotentHint: true,
          openWorldHint: false,
        });
        assert.equal(tools.find((t) => t.name === 'close_issue').annotations.destructiveHint, true);
        assert.equal(tools.find((t) => t.name === 'create_issue').annotations.openWorldHint, true);  // unstated
      });

      test('a generated tool decodes, coerces and answers with structured content', async () => {
        const result = await served.client.callTool({ name: 'suggest_priority', arguments: { title: 'Crash on start' } });
        assert.equal(result.isError, false);
        assert.deepEqual(result.structuredContent, configuration.version === '2026-07-28' ? 'urgent' : { result: 'urgent' });
        const bad = await served.client.callTool({ name: 'suggest_priority', arguments: {} });
        assert.equal(bad.isError, true);
        assert.match(bad.content[0].text, /title/);
      });
    });
  }
}

// Over HTTP every client's calls run on their own: the tracker's tools must hold up to calls from
// several clients at once (each created issue gets its own id).
test('quickstart: concurrent clients over http create distinct issues', async () => {
  const http = await startHttp(quickstart);
  try {
    const clients = await Promise.all([0, 2, 0, 2].map((i) => connect(configurations[i], { url: http.url })));
    const calls = [];
    for (let round = 0; round < 10; ++round)
      clients.forEach((client, c) =>
        calls.push(client.callTool({ name: 'create_issue', arguments: { title: `issue ${c}.${round}` } })));
    const results = await Promise.all(calls);
    const ids = results.map((r) => JSON.parse(r.content[0].text).id);
    assert.equal(new Set(ids).size, calls.length, `ids: ${ids.join(',')}`);
    await Promise.all(clients.map((client) => client.close()));
  } finally {
    assert.equal(await http.stop(), 0);
  }
});
