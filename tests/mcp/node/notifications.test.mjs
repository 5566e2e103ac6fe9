// Notifications from a server whose registry changes while it serves (the fixture's, with
// PTC_FIXTURE_CHANGES=1): a tool, prompt or resource added by a call is announced with
// notifications/*/list_changed, and ToolRegistry::notify_resource_updated (touch_resource) reaches the
// clients subscribed to the URI, from every client configuration over stdio and over HTTP. Each client
// listens the way its era has it: up to 2025-11-25 list changes come unasked (on stdio, or the session's
// GET stream) and updates after resources/subscribe; in 2026-07-28 only on subscriptions/listen streams,
// which client 2 opens for list changes by itself (ClientOptions.listChanged) and for resources with
// client.listen({ resourceSubscriptions }).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

import { configurations, fixture, negotiated, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');
// The fixture registers the changing tools only with this; HTTP servers inherit it, stdio ones get it below.
process.env.PTC_FIXTURE_CHANGES = '1';

const timeout = 20000;
const patience = 5000;  // how long a notification may take before the test fails
const modern = (configuration) => configuration.version === '2026-07-28';
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const updated = 'notifications/resources/updated';
/// Touched until its update arrives before the tests start (see `before`), and otherwise left out.
const probe = 'fixture://items/250';
const listChanged = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
};

/// What a client heard, in order: { method, params } for a notification, and for a list change that
/// client 2 refreshed by itself { method, items } (the refreshed list).
function inbox() {
  const heard = [];
  const waiting = new Set();
  return {
    heard,
    add(note) {
      heard.push(note);
      for (const wake of waiting) wake();
    },
    /// The first note at `from` or later that `matches`; fails after `patience` naming what was heard.
    async next(from, matches, what) {
      const found = () => heard.slice(from).find(matches);
      if (found()) return found();
      return new Promise((resolve, reject) => {
        const wake = () => {
          const note = found();
          if (!note) return;
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(note);
        };
        const timer = setTimeout(() => {
          waiting.delete(wake);
          reject(new Error(`${what} did not arrive within ${patience} ms; heard: ${JSON.stringify(heard.slice(from))}`));
        }, patience);
        waiting.add(wake);
      });
    },
    /// The URIs of the updates heard from `from` on, but for the probe's.
    updates(from) {
      return heard.slice(from).filter((n) => n.method === updated && n.params.uri !== probe).map((n) => n.params.uri);
    },
  };
}

/// A client of `configuration` connected to `server` ({ binary } or { url }), whose notifications go
/// to `notes`. SDK 1 registers a handler per notification schema; client 2 is given
/// ClientOptions.listChanged (which refreshes the list and, in 2026-07-28, opens a listen stream for
/// the list changes the server advertises) and a handler for resources/updated.
async function connect(configuration, server, notes) {
  const info = { name: 'ptc-test', version: '0.0.1' };
  const stdio = { command: server.binary, args: ['mcp'], env: { ...process.env }, stderr: 'pipe' };
  const record = (n) => notes.add({ method: n.method, params: n.params });
  let client, transport;
  if (configuration.v1) {
    client = new ClientV1(info, { capabilities: {} });
    for (const schema of [ToolListChangedNotificationSchema, PromptListChangedNotificationSchema,
      ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema])
      client.setNotificationHandler(schema, record);
    transport = server.url ? new HttpV1(new URL(server.url)) : new StdioV1(stdio);
  } else {
    const refreshed = (method) => ({
      debounceMs: 0,
      onChanged: (error, items) => notes.add({ method, error: error?.message, items }),
    });
    client = new ClientV2(info, {
      versionNegotiation: configuration.negotiation,
      listChanged: { tools: refreshed(listChanged.tools), prompts: refreshed(listChanged.prompts),
        resources: refreshed(listChanged.resources) },
    });
    client.setNotificationHandler(updated, record);
    transport = server.url ? new HttpV2(new URL(server.url)) : new StdioV2(stdio);
  }
  await client.connect(transport);
  return client;
}

/// Subscribes to the resources at `uris`: resources/subscribe up to 2025-11-25, one subscriptions/listen
/// stream in 2026-07-28. Resolves to { honored (2026: what the acknowledgement echoed), close() }.
async function subscribe(configuration, client, uris) {
  if (modern(configuration)) {
    const subscription = await client.listen({ resourceSubscriptions: uris });
    return { honored: subscription.honoredFilter, close: () => subscription.close() };
  }
  for (const uri of uris) assert.deepEqual(await client.subscribeResource({ uri }), {});
  return {
    honored: null,
    close: async () => {
      for (const uri of uris) await client.unsubscribeResource({ uri });
    },
  };
}

/// Calls a tool that must succeed; its answer (a string) as the text shows it, JSON.
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, text(result));
  return JSON.parse(text(result));
}

describe('notifications of what changes while the server serves', { concurrency: 4 }, () => {
  for (const transportName of ['stdio', 'http']) {
    for (const configuration of configurations) {
      describe(`${configuration.name} over ${transportName}`, { concurrency: 1 }, () => {
        const notes = inbox();
        const served = { client: null, http: null, greeting: null };

        before(async () => {
          served.http = transportName === 'http' ? await startHttp(fixture) : null;
          served.client = await connect(configuration, served.http ? { url: served.http.url } : { binary: fixture }, notes);
          served.greeting = await subscribe(configuration, served.client, ['fixture://greeting', probe]);
          // A 2025 client over HTTP hears on the GET stream it opens after initialize, without waiting
          // for it: until the server has it, what the server says unasked goes nowhere. So the probe is
          // touched again until its update arrives; every other channel hears the first touch.
          const from = notes.heard.length;
          const attempts = transportName === 'http' && !modern(configuration) ? 50 : 1;
          const probed = (n) => n.method === updated && n.params.uri === probe;
          for (let attempt = 1; !notes.heard.slice(from).some(probed); ++attempt) {
            await call(served.client, 'touch_resource', { uri: probe });
            if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 100));
            else await notes.next(from, probed, `the update of ${probe}`);
          }
        }, { timeout });

        after(async () => {
          await served.client?.close();
          if (served.http) assert.equal(await served.http.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
        }, { timeout });

        test('listens the way its era has it', { timeout }, async () => {
          const { client } = served;
          assert.equal(negotiated(client), configuration.version);
          const capabilities = client.getServerCapabilities();
          assert.deepEqual(capabilities.tools, { listChanged: true });
          assert.deepEqual(capabilities.prompts, { listChanged: true });
          assert.equal(capabilities.resources.listChanged, true);
          if (configuration.v1) return;  // SDK 1 speaks 2025-11-25 only: no subscriptions/listen
          if (modern(configuration)) {
            // ClientOptions.listChanged opened a listen stream for the three lists, as acknowledged.
            assert.deepEqual(client.autoOpenedSubscription.honoredFilter,
              { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
            assert.deepEqual(served.greeting.honored, { resourceSubscriptions: ['fixture://greeting', probe] });
            // resources/subscribe is not a 2026-07-28 method: client 2 refuses it without asking.
            await assert.rejects(client.subscribeResource({ uri: 'fixture://limits' }),
              (e) => e.code === 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION');
          } else {
            // Up to 2025-11-25 list changes come unasked; there is no listen stream to open.
            assert.equal(client.autoOpenedSubscription, undefined);
            await assert.rejects(client.listen({ toolsListChanged: true }),
              (e) => e.code === 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION');
          }
        });

        test('a resource subscribed to is updated; those not subscribed to are not', { timeout }, async () => {
          const from = notes.heard.length;
          assert.equal(await call(served.client, 'touch_resource', { uri: 'fixture://limits' }), 'touched fixture://limits');
          await call(served.client, 'touch_resource', { uri: 'fixture://items/7' });
          await call(served.client, 'touch_resource', { uri: 'fixture://greeting' });
          const note = await notes.next(from, (n) => n.method === updated && n.params.uri !== probe,
            'notifications/resources/updated');
          assert.equal(note.params.uri, 'fixture://greeting');
          if (modern(configuration)) assert.match(note.params._meta['io.modelcontextprotocol/subscriptionId'], /^listen:/);
          // One channel carries them in order: an update of the others would have come first.
          assert.deepEqual(notes.updates(from), ['fixture://greeting']);
        });

        test('a tool added by a call is announced, listed and callable', { timeout }, async () => {
          const from = notes.heard.length;
          assert.equal(await call(served.client, 'add_tool', { name: 'late_tool' }), 'added tool late_tool');
          const note = await notes.next(from, (n) => n.method === listChanged.tools, listChanged.tools);
          if (note.items) assert.ok(note.items.some((t) => t.name === 'late_tool'), 'client 2 refreshed the list');
          const { tools } = await served.client.listTools();
          assert.ok(tools.some((t) => t.name === 'late_tool'), JSON.stringify(tools.map((t) => t.name)));
          assert.equal(await call(served.client, 'late_tool', {}), 'Added at run time: late_tool.');
          // A name that is taken changes nothing, and nothing is announced. The list changes share one
          // channel, which keeps their order (over HTTP not the one the answers come on): once the
          // resource list's change that follows has arrived, every earlier one has.
          const again = await served.client.callTool({ name: 'add_tool', arguments: { name: 'late_tool' } });
          assert.equal(again.isError, true);
          assert.equal(text(again), "Duplicate tool name registered: 'late_tool'.");
          const second = notes.heard.indexOf(note) + 1;
          await call(served.client, 'add_tool', { name: 'later_tool' });
          const last = await notes.next(second, (n) => n.method === listChanged.tools, 'the second tools/list_changed');
          if (last.items) assert.ok(last.items.some((t) => t.name === 'later_tool'), 'client 2 refreshed the list');
          await call(served.client, 'add_resource', { name: 'after_tools' });
          await notes.next(second, (n) => n.method === listChanged.resources, listChanged.resources);
          assert.equal(notes.heard.slice(from).filter((n) => n.method === listChanged.tools).length, 2);
        });

        test('a prompt added by a call is announced, listed and rendered', { timeout }, async () => {
          const from = notes.heard.length;
          assert.equal(await call(served.client, 'add_prompt', { name: 'late_prompt' }), 'added prompt late_prompt');
          const note = await notes.next(from, (n) => n.method === listChanged.prompts, listChanged.prompts);
          if (note.items) assert.ok(note.items.some((p) => p.name === 'late_prompt'), 'client 2 refreshed the list');
          const { prompts } = await served.client.listPrompts();
          assert.ok(prompts.some((p) => p.name === 'late_prompt'), JSON.stringify(prompts.map((p) => p.name)));
          const prompt = await served.client.getPrompt({ name: 'late_prompt' });
          assert.equal(prompt.messages[0].content.text, 'Added at run time: late_prompt.');
          // Nothing else was said: no other list changed.
          const others = notes.heard.slice(from).filter((n) => n.method !== listChanged.prompts && n.params?.uri !== probe);
          assert.deepEqual(others, []);
        });

        test('a resource added by a call is announced, listed, and can be subscribed to', { timeout }, async () => {
          const from = notes.heard.length;
          const uri = await call(served.client, 'add_resource', { name: 'late' });
          assert.equal(uri, 'fixture://added/late');
          const note = await notes.next(from, (n) => n.method === listChanged.resources, listChanged.resources);
          if (note.items) assert.ok(note.items.some((r) => r.uri === uri), 'client 2 refreshed the list');
          const { resources } = await served.client.listResources();
          assert.ok(resources.some((r) => r.uri === uri), JSON.stringify(resources.map((r) => r.uri)));
          const late = await subscribe(configuration, served.client, [uri]);
          try {
            await call(served.client, 'touch_resource', { uri });
            await notes.next(from, (n) => n.method === updated && n.params.uri === uri, `the update of ${uri}`);
            assert.deepEqual(notes.updates(from), [uri]);
          } finally {
            await late.close();
          }
        });

        test('after unsubscribing (2025) or closing the listen stream (2026), no more updates', { timeout }, async () => {
          await served.greeting.close();
          const sentinel = await subscribe(configuration, served.client, ['fixture://items/1']);
          try {
            const from = notes.heard.length;
            await call(served.client, 'touch_resource', { uri: 'fixture://greeting' });
            await call(served.client, 'touch_resource', { uri: 'fixture://items/1' });
            await notes.next(from, (n) => n.method === updated && n.params.uri === 'fixture://items/1',
              'the update of fixture://items/1');
            assert.deepEqual(notes.updates(from), ['fixture://items/1']);
          } finally {
            await sentinel.close();
          }
        });
      });
    }
  }
});
