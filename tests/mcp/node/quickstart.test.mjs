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
        // PTC_ADDITIVE: stated, and none of the four hints claimed.
        assert.deepEqual(tools.find((t) => t.name === 'create_issue').annotations, {
          readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false,
        });
      });

      test('goes by the name and version of its CMake project', () => {
        // examples/quickstart/CMakeLists.txt: project(tracker VERSION 1.0.0); main() names no server.
        assert.deepEqual(served.client.getServerVersion(), { name: 'tracker', version: '1.0.0' });
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

// What the quickstart serves besides tools, from tracker.hpp's PTC_RESOURCE, PTC_PROMPT and PTC_COMPLETE,
// and its tools that ask the client: delete_issue asks the user (elicitation), summarize_issue the
// client's model (sampling). In the 2025 era the server asks on the call's stream, in 2026-07-28 by
// multi round trip; the clients answer both through the same handlers.
for (const configuration of [configurations[0], configurations[1], configurations[3]]) {
  for (const transportName of ['stdio', 'http']) {
    describe(`quickstart served: ${configuration.name} over ${transportName}`, () => {
      const served = serveAndConnect(quickstart, configuration, transportName);

      /// Runs `use` with one more client, answering as `answers` say: of the same server over HTTP, of a
      /// server of its own (a fresh tracker) over stdio.
      async function withClient(answers, use) {
        const client = await connect(configuration, served.http ? { url: served.http.url } : { binary: quickstart }, answers);
        try {
          return await use(client);
        } finally {
          await client.close();
        }
      }

      test('reads the issue template and the static labels resource', async () => {
        assert.equal(negotiated(served.client), configuration.version);
        const { resourceTemplates } = await served.client.listResourceTemplates();
        assert.deepEqual(resourceTemplates.find((t) => t.name === 'issue'),
                         { uriTemplate: 'tracker://issues/{key}', name: 'issue', description: 'An issue, as JSON.' });
        const { resources } = await served.client.listResources();
        assert.deepEqual(resources.find((r) => r.name === 'labels'),
                         { uri: 'tracker://labels', name: 'labels', description: 'The labels in use, sorted.' });
        const issue = (await served.client.readResource({ uri: 'tracker://issues/PTC-1' })).contents[0];
        assert.equal(issue.uri, 'tracker://issues/PTC-1');
        assert.equal(issue.mimeType, 'application/json');
        assert.equal(JSON.parse(issue.text).title, 'Crash when saving an empty file');
        const labels = (await served.client.readResource({ uri: 'tracker://labels' })).contents[0];
        assert.deepEqual(JSON.parse(labels.text), ['bug', 'ui']);
        await assert.rejects(served.client.readResource({ uri: 'tracker://issues/PTC-99' }));
      });

      test('lists, renders and completes the triage prompt', async () => {
        const { prompts } = await served.client.listPrompts();
        assert.deepEqual(prompts.find((p) => p.name === 'triage').arguments,
                         [{ name: 'issue', description: 'The issue\'s key, e.g. "PTC-1".', required: true }]);
        const { messages } = await served.client.getPrompt({ name: 'triage', arguments: { issue: 'PTC-1' } });
        assert.equal(messages.length, 1);
        assert.equal(messages[0].role, 'user');
        assert.match(messages[0].content.text, /PTC-1 "Crash when saving an empty file" \(open, urgent priority, labels: bug\)/);
        const issues = await served.client.complete({ ref: { type: 'ref/prompt', name: 'triage' },
                                                      argument: { name: 'issue', value: 'ptc-' } });
        assert.deepEqual(issues.completion.values.slice(0, 2), ['PTC-1', 'PTC-2']);
        const keys = await served.client.complete({ ref: { type: 'ref/resource', uri: 'tracker://issues/{key}' },
                                                    argument: { name: 'key', value: 'PTC-2' } });
        assert.ok(keys.completion.values.includes('PTC-2'), keys.completion.values.join(','));
        assert.ok(!keys.completion.values.includes('PTC-1'), keys.completion.values.join(','));
      });

      test('delete_issue deletes once the user confirms', async () => {
        const asked = [];
        const accept = async (request) => {
          asked.push(request.params);
          return { action: 'accept', content: { confirm: true } };
        };
        await withClient({ 'elicitation/create': accept }, async (client) => {
          const created = await client.callTool({ name: 'create_issue', arguments: { title: 'Delete me' } });
          const { key } = JSON.parse(created.content[0].text);
          const deleted = await client.callTool({ name: 'delete_issue', arguments: { issue: key } });
          assert.equal(deleted.isError, false, deleted.content[0].text);
          assert.equal(JSON.parse(deleted.content[0].text), `Deleted ${key}.`);  // a string value, as JSON text
          assert.equal(asked.length, 1);
          assert.equal(asked[0].message, `Delete ${key} for good? This cannot be undone.`);
          assert.equal(asked[0].requestedSchema.properties.confirm.type, 'boolean');
          const again = await client.callTool({ name: 'delete_issue', arguments: { issue: key } });
          assert.equal(again.isError, true);
          assert.match(again.content[0].text, /No such issue/);
        });
      });

      test('delete_issue keeps the issue when the user declines', async () => {
        await withClient({ 'elicitation/create': async () => ({ action: 'decline' }) }, async (client) => {
          const result = await client.callTool({ name: 'delete_issue', arguments: { issue: 'PTC-1' } });
          assert.equal(result.isError, true);
          assert.equal(result.content[0].text, 'PTC-1 was not deleted: the user declined.');
          const still = (await client.readResource({ uri: 'tracker://issues/PTC-1' })).contents[0];
          assert.equal(JSON.parse(still.text).key, 'PTC-1');
        });
      });

      test('delete_issue refuses when the client cannot ask its user', async () => {
        const result = await served.client.callTool({ name: 'delete_issue', arguments: { issue: 'PTC-1' } });
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /^PTC-1 was not deleted: .*'elicitation'/);
      });

      test('summarize_issue asks the client\'s model', async () => {
        const asked = [];
        const sample = async (request) => {
          asked.push(request.params);
          return { model: 'test-model', role: 'assistant',
                   content: { type: 'text', text: 'Saving an empty file crashes the editor.' } };
        };
        await withClient({ 'sampling/createMessage': sample }, async (client) => {
          const result = await client.callTool({ name: 'summarize_issue', arguments: { issue: 'PTC-1' } });
          assert.equal(result.isError, false, result.content[0].text);
          assert.equal(JSON.parse(result.content[0].text), 'Saving an empty file crashes the editor.');
          assert.equal(asked.length, 1);
          assert.match(asked[0].messages[0].content.text, /Crash when saving an empty file/);
        });
      });

      test('summarize_issue says so when the client cannot sample', async () => {
        const result = await served.client.callTool({ name: 'summarize_issue', arguments: { issue: 'PTC-1' } });
        assert.equal(result.isError, true);
        assert.match(result.content[0].text, /^Cannot summarize PTC-1: .*'sampling'/);
      });
    });
  }
}
