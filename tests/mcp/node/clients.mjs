// The official MCP clients, set up the ways a host uses them: SDK 1.32.2 (2025 era only) and client
// 2.4.0 in each versionNegotiation mode, over stdio or Streamable HTTP, against a server binary.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before } from 'node:test';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

export const fixture = process.env.PTC_MCP_FIXTURE;
export const quickstart = process.env.PTC_QUICKSTART;

/// Each client configuration: how it is built, and the revision it must end up speaking.
export const configurations = [
  { name: 'sdk 1.32.2', v1: true, version: '2025-11-25' },
  { name: 'client 2.4.0 legacy', negotiation: { mode: 'legacy' }, version: '2025-11-25' },
  { name: 'client 2.4.0 auto', negotiation: { mode: 'auto' }, version: '2026-07-28' },
  { name: 'client 2.4.0 pinned', negotiation: { mode: { pin: '2026-07-28' } }, version: '2026-07-28' },
];

/// Starts `binary mcp --http 127.0.0.1:0` and resolves once it prints the address it serves: { url, proc,
/// stop() }, stop sending SIGTERM and resolving to the exit code.
export async function startHttp(binary, extra = []) {
  const proc = spawn(binary, ['mcp', '--http', '127.0.0.1:0', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving (http:\/\/\S+)\n/.exec(stderr);  // the whole line: chunks may split it
      if (match) resolve(match[1]);
    });
    proc.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
  return {
    url,
    proc,
    async stop() {
      proc.kill('SIGTERM');
      const [code] = await once(proc, 'exit');
      return code;
    },
  };
}

// SDK 1 names a server-to-client request by its schema, client 2 by its method.
const v1Schemas = {
  'elicitation/create': ElicitRequestSchema,
  'sampling/createMessage': CreateMessageRequestSchema,
  'roots/list': ListRootsRequestSchema,
};

/// A connected client. `server` is { binary, args } for stdio (args: after `mcp`) or { url } for HTTP.
/// `answers` maps the server-to-client requests the client answers ('elicitation/create',
/// 'sampling/createMessage', 'roots/list') to their handlers, and declares the capability of each.
export async function connect(configuration, server, answers = {}) {
  const info = { name: 'ptc-test', version: '0.0.1' };
  const capabilities = {};
  for (const method of Object.keys(answers)) capabilities[method.split('/')[0]] = {};
  if (capabilities.roots) capabilities.roots = { listChanged: true };  // roots tests say when theirs change
  let client, transport;
  if (configuration.v1) {
    client = new ClientV1(info, { capabilities });
    transport = server.url ? new HttpV1(new URL(server.url)) : new StdioV1({ command: server.binary, args: ['mcp', ...(server.args ?? [])], env: { ...process.env }, stderr: 'pipe' });
  } else {
    client = new ClientV2(info, { capabilities, versionNegotiation: configuration.negotiation });
    transport = server.url ? new HttpV2(new URL(server.url)) : new StdioV2({ command: server.binary, args: ['mcp', ...(server.args ?? [])], env: { ...process.env }, stderr: 'pipe' });
  }
  for (const [method, handler] of Object.entries(answers))
    client.setRequestHandler(configuration.v1 ? v1Schemas[method] : method, handler);
  await client.connect(transport);
  return client;
}

/// For a describe block: starts `binary` (as `mcp --http` for the 'http' transport), connects the
/// configured client before the tests and closes both after them; an HTTP server must exit 0 on
/// SIGTERM. The returned object's `client` is the connected client.
export function serveAndConnect(binary, configuration, transportName) {
  const served = { client: null, http: null };
  before(async () => {
    served.http = transportName === 'http' ? await startHttp(binary) : null;
    served.client = await connect(configuration, served.http ? { url: served.http.url } : { binary });
  });
  after(async () => {
    await served.client?.close();
    if (served.http) assert.equal(await served.http.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
  });
  return served;
}

/// `client.callTool` with request options (onprogress, signal): SDK 1 takes a result schema before
/// them, client 2 does not.
export function callWithOptions(client, params, options) {
  return client instanceof ClientV1 ? client.callTool(params, undefined, options) : client.callTool(params, options);
}

/// The protocol revision a connected client speaks.
export function negotiated(client) {
  return client.getNegotiatedProtocolVersion ? client.getNegotiatedProtocolVersion() : '2025-11-25';
}
