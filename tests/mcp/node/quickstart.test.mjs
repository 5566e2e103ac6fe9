// The quickstart tracker as `quickstart mcp` serves it: generated tools, their schemas and typed
// decoders, reached by the official clients.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { configurations, negotiated, quickstart, serveAndConnect } from './clients.mjs';

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
