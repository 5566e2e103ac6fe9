// Every client configuration, over stdio and over HTTP, against the fixture server: the calls a host
// makes, checked as the host sees them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { callWithOptions, configurations, fixture, negotiated, serveAndConnect } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');

// Up to 2025-11-25 structured content is an object, so a result that is not one travels as
// {result}; 2026-07-28 carries it as itself.
const structured = (configuration, value) => (configuration.version === '2026-07-28' ? value : { result: value });

const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

for (const transportName of ['stdio', 'http']) {
  for (const configuration of configurations) {
    describe(`${configuration.name} over ${transportName}`, () => {
      const served = serveAndConnect(fixture, configuration, transportName);

      test('negotiates the expected revision and names the server', () => {
        assert.equal(negotiated(served.client), configuration.version);
        assert.equal(served.client.getServerVersion().name, 'ptc-fixture');
        assert.equal(served.client.getServerVersion().version, '1.2.3');
        assert.match(served.client.getInstructions() ?? '', /add\(a :int, b :int\) -> :int/);
      });

      test('lists the tools in registration order with their schemas', async () => {
        const { tools } = await served.client.listTools();
        assert.deepEqual(tools.map((t) => t.name), ['add', 'describe', 'fail', 'steps', 'wait', 'stubborn', 'stats', 'chatty', 'picture']);
        const add = tools[0];
        assert.equal(add.description, 'Adds two integers.');
        assert.deepEqual(add.inputSchema.required, ['a', 'b']);
        assert.equal(add.inputSchema.properties.a.type, 'integer');
        const wrapped = { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'],
          additionalProperties: false };
        assert.deepEqual(add.outputSchema, configuration.version === '2026-07-28' ? { type: 'integer' } : wrapped);
        assert.equal(add.title, 'Add integers');
        assert.deepEqual(add.annotations, {
          title: 'Add integers', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false,
        });
        // A tool that states nothing is described by MCP's defaults, every hint explicit.
        assert.deepEqual(tools[2].annotations, {
          readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true,
        });
      });

      test('calls a tool: a text block and structured content that matches the output schema', async () => {
        const result = await served.client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
        assert.equal(result.isError, false);
        assert.equal(text(result), '42');
        assert.deepEqual(result.structuredContent, structured(configuration, 42));
        const point = await served.client.callTool({ name: 'describe', arguments: { x: 1, y: 2 } });
        assert.deepEqual(point.structuredContent, { sum: 3, label: '1,2' });
      });

      test('coerces what models send: a number as a string', async () => {
        const result = await served.client.callTool({ name: 'add', arguments: { a: '2', b: 3 } });
        assert.equal(result.isError, false);
        assert.deepEqual(result.structuredContent, structured(configuration, 5));
      });

      test('invalid arguments come back as isError with the report, not as a protocol error', async () => {
        const result = await served.client.callTool({ name: 'add', arguments: { a: 'many', b: 3 } });
        assert.equal(result.isError, true);
        assert.match(text(result), /a: expected int/);
        assert.equal(result.structuredContent, undefined);
      });

      test('a failed result is isError with its message', async () => {
        const result = await served.client.callTool({ name: 'fail', arguments: { why: 'testing' } });
        assert.equal(result.isError, true);
        assert.match(text(result), /failed on purpose: testing/);
      });

      test('an unknown tool is a -32602 protocol error', async () => {
        await assert.rejects(served.client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => {
          assert.equal(e.code, -32602);
          assert.match(e.message, /Unknown tool: no_such_tool/);
          return true;
        });
      });

      test('progress reports reach the client in order', async () => {
        const seen = [];
        const result = await callWithOptions(served.client, { name: 'steps', arguments: { n: 3 } }, {
          onprogress: (p) => seen.push(p),
        });
        assert.deepEqual(result.structuredContent, structured(configuration, 3));
        assert.deepEqual(seen.map((p) => [p.progress, p.total, p.message]), [
          [1, 3, 'step 1'],
          [2, 3, 'step 2'],
          [3, 3, 'step 3'],
        ]);
      });

      test('cancelling a call reaches the handler', async () => {
        const before = (await served.client.callTool({ name: 'stats', arguments: {} })).structuredContent;
        const controller = new AbortController();
        // `wait` reports progress once it runs; the client's calls share one session, so nothing else of
        // this client could tell.
        let running;
        const started = new Promise((r) => (running = r));
        const pending = callWithOptions(served.client, { name: 'wait', arguments: {} }, {
          signal: controller.signal,
          onprogress: () => running(),
        });
        await started;
        controller.abort('test cancels');
        await assert.rejects(pending);
        // Over 2025 sessions the next call waits for `wait` to end; 2026 requests have no session, so
        // ask until the handler has seen the cancellation (a closed stream is noticed within 100 ms).
        const start = Date.now();
        let now;
        do {
          now = (await served.client.callTool({ name: 'stats', arguments: {} })).structuredContent;
        } while (now.cancelled === before.cancelled && Date.now() - start < 10000);
        assert.ok(Date.now() - start < 10000, 'the cancelled handler stopped long before its 30 s');
        assert.equal(now.started, before.started + 1);
        assert.equal(now.cancelled, before.cancelled + 1, 'the handler saw the cancellation');
      });

      test('concurrent calls each get their own answer', async () => {
        const calls = Array.from({ length: 40 }, (_, i) => served.client.callTool({ name: 'add', arguments: { a: i, b: 1000 } }));
        const results = await Promise.all(calls);
        results.forEach((r, i) => assert.deepEqual(r.structuredContent, structured(configuration, i + 1000)));
      });

      test('a tool that prints to std::cout does not corrupt the stream', async () => {
        const result = await served.client.callTool({ name: 'chatty', arguments: {} });
        assert.deepEqual(result.structuredContent, structured(configuration, 'printed'));
        const again = await served.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
        assert.deepEqual(again.structuredContent, structured(configuration, 2));
      });

      test('attached blocks follow the text, as the client\'s content types', async () => {
        const result = await served.client.callTool({ name: 'picture', arguments: {} });
        assert.equal(result.isError, false);
        assert.deepEqual(result.content, [
          { type: 'text', text: '"a caption"' },
          { type: 'image', data: Buffer.from('not really a png').toString('base64'), mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'mem://raw', mimeType: 'application/octet-stream', blob: 'AAEC' } },
        ]);
      });
    });
  }
}
