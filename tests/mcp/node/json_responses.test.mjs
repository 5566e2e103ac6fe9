// `mcp --http --json-responses`: a call that sends nothing but its answer gets one application/json
// response, and every client configuration still works with it, including the calls that must stay a
// stream (progress, and a question for the client in 2025-11-25).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { callWithOptions, configurations, connect, fixture, negotiated, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');
process.env.PTC_FIXTURE_CLIENT_TOOLS = '1';  // ask_model, which samples

const timeout = 15000;  // no test may hang: a missing answer fails it

/// One POST of a 2026-07-28 tools/call, as the wire carries it: the response's status, content type
/// and text.
async function rawCall(url, name, args, meta = {}) {
  const body = {
    jsonrpc: '2.0', id: 1, method: 'tools/call',
    params: {
      name, arguments: args,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
               'io.modelcontextprotocol/clientCapabilities': {}, ...meta },
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the wire with --json-responses', () => {
  let http;
  before(async () => { http = await startHttp(fixture, ['--json-responses']); }, { timeout });
  after(async () => assert.equal(await http.stop(), 0, 'the HTTP server exits 0 on SIGTERM'), { timeout });

  test('a call answered at once is one JSON response', { timeout }, async () => {
    const r = await rawCall(http.url, 'describe', { x: 1, y: 2 });
    assert.equal(r.status, 200);
    assert.equal(r.type, 'application/json');
    const message = JSON.parse(r.text);
    assert.equal(message.id, 1);
    assert.deepEqual(message.result.structuredContent, { sum: 3, label: '1,2' });
  });

  test('a call that reports progress first is a stream', { timeout }, async () => {
    const r = await rawCall(http.url, 'steps', { n: 2 }, { progressToken: 'p' });
    assert.equal(r.status, 200);
    assert.equal(r.type, 'text/event-stream');
    const events = r.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    assert.deepEqual(events.map((e) => e.method ?? 'response'),
                     ['notifications/progress', 'notifications/progress', 'response']);
    assert.equal(events[2].result.structuredContent, 2);
  });

  test('without the option the same call is a stream', { timeout }, async () => {
    const plain = await startHttp(fixture);
    try {
      const r = await rawCall(plain.url, 'describe', { x: 1, y: 2 });
      assert.equal(r.type, 'text/event-stream');
    } finally {
      assert.equal(await plain.stop(), 0);
    }
  });
});

for (const configuration of configurations) {
  describe(`${configuration.name} over HTTP with --json-responses`, () => {
    let http, client;
    before(async () => {
      http = await startHttp(fixture, ['--json-responses']);
      client = await connect(configuration, { url: http.url }, {
        'sampling/createMessage': async () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' },
                                                  model: 'test-model', stopReason: 'endTurn' }),
      });
    }, { timeout });
    after(async () => {
      await client?.close();
      assert.equal(await http.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
    }, { timeout });

    test('speaks its revision and calls a tool', { timeout }, async () => {
      assert.equal(negotiated(client), configuration.version);
      const result = await client.callTool({ name: 'describe', arguments: { x: 2, y: 3 } });
      assert.deepEqual(result.structuredContent, { sum: 5, label: '2,3' });
    });

    test('progress still arrives', { timeout }, async () => {
      const seen = [];
      const result = await callWithOptions(client, { name: 'steps', arguments: { n: 3 } },
                                           { onprogress: (p) => seen.push(p.progress) });
      assert.deepEqual(seen, [1, 2, 3]);
      assert.ok(JSON.stringify(result.structuredContent).includes('3'));
    });

    test('a question for the client is answered', { timeout }, async () => {
      const result = await client.callTool({ name: 'ask_model', arguments: { question: 'Capital of France?' } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result));
      assert.equal(result.structuredContent.text, 'Paris');
      assert.equal(result.structuredContent.model, 'test-model');
    });
  });
}
