// The quickstart tracker as `quickstart mcp` serves it: generated tools, their schemas and typed
// decoders, reached by the official clients.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { configurations, connect, negotiated, quickstart, startHttp } from './clients.mjs';

assert.ok(quickstart, 'PTC_QUICKSTART must name the quickstart binary');

for (const configuration of [configurations[0], configurations[2]]) {
  for (const transportName of ['stdio', 'http']) {
    describe(`quickstart: ${configuration.name} over ${transportName}`, () => {
      let http, client;
      before(async () => {
        http = transportName === 'http' ? await startHttp(quickstart) : null;
        client = await connect(configuration, http ? { url: http.url } : { binary: quickstart });
      });
      after(async () => {
        await client?.close();
        if (http) await http.stop();
      });

      test('lists the generated tools', async () => {
        assert.equal(negotiated(client), configuration.version);
        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name);
        assert.ok(names.includes('suggest_priority'), names.join(','));
        assert.ok(names.includes('create_issue'), names.join(','));
      });

      test('a generated tool decodes, coerces and answers with structured content', async () => {
        const result = await client.callTool({ name: 'suggest_priority', arguments: { title: 'Crash on start' } });
        assert.equal(result.isError, false);
        assert.deepEqual(result.structuredContent, { result: 'urgent' });
        const bad = await client.callTool({ name: 'suggest_priority', arguments: {} });
        assert.equal(bad.isError, true);
        assert.match(bad.content[0].text, /title/);
      });
    });
  }
}
