// Resources, resource templates, prompts and completions of the fixture server, as every client
// configuration sees them over stdio and over HTTP: lists, reads (text, JSON, bytes, template
// variables decoded leniently), the errors each era names, subscriptions (2025), prompts with an enum
// argument and an attached image, and completions from an enum and from a completer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { configurations, connect, fixture, negotiated, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');

const timeout = 15000;  // no test may hang: a missing answer fails it
const modern = (configuration) => configuration.version === '2026-07-28';

// tests/mcp/fixture/fixture_server.cpp's kLogo: bytes that are not UTF-8, so only a blob carries them.
const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x01]).toString('base64');

/// For a describe block: the fixture (as `mcp --http` for 'http') and a client of `configuration`
/// connected to it, each step with a timeout; an HTTP server must exit 0 on SIGTERM.
function serve(configuration, transportName) {
  const served = { client: null, http: null };
  before(async () => {
    served.http = transportName === 'http' ? await startHttp(fixture) : null;
    served.client = await connect(configuration, served.http ? { url: served.http.url } : { binary: fixture });
  }, { timeout });
  after(async () => {
    await served.client?.close();
    if (served.http) assert.equal(await served.http.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
  }, { timeout });
  return served;
}

/// Asserts that `e` is the server's JSON-RPC error: SDK 1 prefixes the message with "MCP error CODE: ",
/// client 2 keeps it as the server wrote it.
function assertError(configuration, e, { code, message, data }) {
  assert.ok(e, 'the request must fail');
  assert.equal(e.code, code, e.stack);
  assert.equal(e.message, configuration.v1 ? `MCP error ${code}: ${message}` : message);
  assert.deepEqual(e.data, data);
}

/// The error `promise` rejects with (it must reject).
async function failure(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('the request succeeded');
}

async function rejectsWith(configuration, promise, expected) {
  assertError(configuration, await failure(promise), expected);
}

/// 2026-07-28 lists and reads are cacheable (ttlMs, cacheScope); 2025 results have neither.
function assertCaching(configuration, result) {
  if (modern(configuration)) {
    assert.equal(result.ttlMs, 300000);
    assert.equal(result.cacheScope, 'public');
  } else {
    assert.equal(result.ttlMs, undefined);
    assert.equal(result.cacheScope, undefined);
  }
}

describe('resources, prompts and completions', { concurrency: 4 }, () => {
  for (const transportName of ['stdio', 'http']) {
    for (const configuration of configurations) {
      describe(`${configuration.name} over ${transportName}`, () => {
        const served = serve(configuration, transportName);

        test('the server states resources, prompts and completions', { timeout }, () => {
          assert.equal(negotiated(served.client), configuration.version);
          const capabilities = served.client.getServerCapabilities();
          assert.equal(typeof capabilities.resources, 'object');
          assert.equal(typeof capabilities.prompts, 'object');
          assert.deepEqual(capabilities.completions, {});
          // What a client that enforces capabilities needs before it sends resources/subscribe.
          if (!modern(configuration)) assert.equal(capabilities.resources.subscribe, true);
        });

        test('lists the static resources in registration order', { timeout }, async () => {
          const result = await served.client.listResources();
          assert.deepEqual(result.resources, [
            { uri: 'fixture://greeting', name: 'greeting', title: 'Greeting', description: 'A static greeting.' },
            { uri: 'fixture://limits', name: 'limits', description: 'The limits, as JSON.' },
            { uri: 'fixture://logo', name: 'logo', description: "The logo's bytes.", mimeType: 'image/png' },
          ]);
          assert.equal(result.nextCursor, undefined);
          assertCaching(configuration, result);
        });

        test('lists the templates apart from the static resources', { timeout }, async () => {
          const result = await served.client.listResourceTemplates();
          assert.deepEqual(result.resourceTemplates, [
            { uriTemplate: 'fixture://items/{id}', name: 'item', title: 'Item', description: 'One item by id.' },
          ]);
          assertCaching(configuration, result);
        });

        test('reads a text resource', { timeout }, async () => {
          const result = await served.client.readResource({ uri: 'fixture://greeting' });
          assert.deepEqual(result.contents, [
            { uri: 'fixture://greeting', mimeType: 'text/plain', text: 'Hello from the fixture.' },
          ]);
          assertCaching(configuration, result);
        });

        test('reads a typed value as its JSON text', { timeout }, async () => {
          const result = await served.client.readResource({ uri: 'fixture://limits' });
          assert.deepEqual(result.contents, [
            { uri: 'fixture://limits', mimeType: 'application/json', text: '{"max_items":250,"units":["kg","m"]}' },
          ]);
        });

        test('reads bytes as the blob the reader attached', { timeout }, async () => {
          const result = await served.client.readResource({ uri: 'fixture://logo' });
          assert.deepEqual(result.contents, [{ uri: 'fixture://logo', mimeType: 'image/png', blob: logo }]);
        });

        test('reads a template: the variable is percent-decoded and coerced to its int', { timeout }, async () => {
          const plain = await served.client.readResource({ uri: 'fixture://items/12' });
          assert.deepEqual(plain.contents, [
            { uri: 'fixture://items/12', mimeType: 'application/json', text: '{"id":12,"name":"item 12"}' },
          ]);
          // The contents name the URI as it was asked for.
          const encoded = await served.client.readResource({ uri: 'fixture://items/%31%32' });
          assert.deepEqual(encoded.contents, [
            { uri: 'fixture://items/%31%32', mimeType: 'application/json', text: '{"id":12,"name":"item 12"}' },
          ]);
        });

        test('a variable that does not decode is -32602 with the validation report', { timeout }, async () => {
          await rejectsWith(configuration, served.client.readResource({ uri: 'fixture://items/zero' }), {
            code: -32602,
            message: 'Invalid params: Tool validation errors:\n- id: expected int, got string "zero"',
          });
          await rejectsWith(configuration, served.client.readResource({ uri: 'fixture://items/0' }), {
            code: -32602,
            message: 'Invalid params: Tool validation errors:\n- id: expected value > 0, got 0',
          });
        });

        test('a missing resource is named as the era says', { timeout }, async () => {
          // 2025 revisions send -32002, 2026-07-28 -32602, both with data.uri. Client 2 reads either as its
          // ResourceNotFoundError, whose code is -32602: SDK 1 shows the 2025 wire code, and
          // round_trip_http.test.mjs the 2026 one.
          const code = configuration.v1 ? -32002 : -32602;
          const missing = await failure(served.client.readResource({ uri: 'fixture://nothing' }));
          assertError(configuration, missing, {
            code, message: 'Resource not found: fixture://nothing', data: { uri: 'fixture://nothing' },
          });
          if (!configuration.v1) assert.equal(missing.constructor.name, 'ResourceNotFoundError');
          // A reader's failed result says, in its own words, that the thing is not there.
          await rejectsWith(configuration, served.client.readResource({ uri: 'fixture://items/300' }), {
            code, message: 'Item 300 does not exist.', data: { uri: 'fixture://items/300' },
          });
        });

        test('subscribes to resources that exist (2025), which 2026-07-28 has no method for', { timeout }, async () => {
          if (modern(configuration)) {
            // Client 2 refuses to send the method in the 2026-07-28 era at all.
            await assert.rejects(served.client.subscribeResource({ uri: 'fixture://greeting' }),
              /Method 'resources\/subscribe' is not supported by the negotiated protocol version/);
            return;
          }
          assert.deepEqual(await served.client.subscribeResource({ uri: 'fixture://items/7' }), {});
          assert.deepEqual(await served.client.unsubscribeResource({ uri: 'fixture://items/7' }), {});
          await rejectsWith(configuration, served.client.subscribeResource({ uri: 'fixture://nothing' }), {
            code: configuration.v1 ? -32002 : -32602,
            message: 'Resource not found: fixture://nothing',
            data: { uri: 'fixture://nothing' },
          });
        });

        test('lists the prompts with the arguments of their renderers', { timeout }, async () => {
          const result = await served.client.listPrompts();
          assert.deepEqual(result.prompts, [
            {
              name: 'review',
              description: 'Asks for a code review.',
              arguments: [
                { name: 'code', required: true },
                { name: 'style', required: true },
                { name: 'lines', required: false },
              ],
            },
            { name: 'caption', description: 'Asks for a caption of an image.', arguments: [] },
          ]);
          assertCaching(configuration, result);
        });

        test('gets a prompt: string arguments decoded, the text a user message', { timeout }, async () => {
          const result = await served.client.getPrompt({
            name: 'review', arguments: { code: 'x = 1', style: 'terse', lines: '3' },
          });
          assert.equal(result.description, 'Asks for a code review.');
          assert.deepEqual(result.messages, [
            { role: 'user', content: { type: 'text', text: 'Review this code (terse): x = 1 in at most 3 lines' } },
          ]);
          const short = await served.client.getPrompt({ name: 'review', arguments: { code: 'y', style: 'friendly' } });
          assert.deepEqual(short.messages[0].content.text, 'Review this code (friendly): y');
        });

        test('gets a prompt whose attached image comes first', { timeout }, async () => {
          const result = await served.client.getPrompt({ name: 'caption' });
          assert.deepEqual(result.messages, [
            { role: 'user', content: { type: 'image', data: logo, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Write a caption for the image above.' } },
          ]);
        });

        test('prompt arguments that do not decode, and unknown prompts, are -32602', { timeout }, async () => {
          await rejectsWith(configuration, served.client.getPrompt({ name: 'review', arguments: { style: 'rude' } }), {
            code: -32602,
            message: 'Invalid params: Tool validation errors:\n- code: missing required field\n' +
              '- style: expected one of ["terse", "thorough", "friendly"], got "rude"',
          });
          await rejectsWith(configuration, served.client.getPrompt({ name: 'nope' }), {
            code: -32602, message: 'Invalid params: Unknown prompt: nope',
          });
        });

        test('completes an enum argument from its values, with no code', { timeout }, async () => {
          const ref = { type: 'ref/prompt', name: 'review' };
          const t = await served.client.complete({ ref, argument: { name: 'style', value: 't' } });
          assert.deepEqual(t.completion, { values: ['terse', 'thorough'], total: 2, hasMore: false });
          const all = await served.client.complete({ ref, argument: { name: 'style', value: '' } });
          assert.deepEqual(all.completion.values, ['terse', 'thorough', 'friendly']);
          const none = await served.client.complete({ ref, argument: { name: 'code', value: 'x' } });
          assert.deepEqual(none.completion, { values: [], total: 0, hasMore: false });
          await rejectsWith(configuration, served.client.complete({ ref, argument: { name: 'tone', value: '' } }), {
            code: -32602, message: "Invalid params: prompt 'review' has no argument 'tone'",
          });
        });

        test('completes a template variable from its completer, at most 100 values', { timeout }, async () => {
          const ref = { type: 'ref/resource', uri: 'fixture://items/{id}' };
          const nine = await served.client.complete({ ref, argument: { name: 'id', value: '9' } });
          assert.deepEqual(nine.completion, {
            values: ['9', '90', '91', '92', '93', '94', '95', '96', '97', '98', '99'], total: 11, hasMore: false,
          });
          const all = await served.client.complete({ ref, argument: { name: 'id', value: '' } });
          assert.deepEqual(all.completion.values, Array.from({ length: 100 }, (_, i) => String(i + 1)));
          assert.equal(all.completion.total, 250);
          assert.equal(all.completion.hasMore, true);
          const ones = await served.client.complete({ ref, argument: { name: 'id', value: '1' } });
          assert.equal(ones.completion.values.length, 100);
          assert.equal(ones.completion.total, 111);  // 1, 10-19, 100-199
          assert.equal(ones.completion.hasMore, true);
        });
      });
    }
  }
});
