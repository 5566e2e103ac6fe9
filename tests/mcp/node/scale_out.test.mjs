// ptc's MCP server scaled out behind a real load balancer: three fixture servers sharing one
// --state-key-file, behind nginx configured from tests/mcp/deploy/nginx.conf.template (the file
// docs/deploy.md shows). The official client, pinned to the stateless 2026-07-28 revision, makes
// hundreds of calls through nginx, several at a time, while one instance is killed; every call must
// get its own answer. A 2025 client keeps its session on one instance through the same nginx.
//
// nginx is required: without it this test fails, it does not skip (scripts/setup.sh installs it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { callWithOptions, configurations, connect, fixture, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');

const here = path.dirname(fileURLToPath(import.meta.url));
const templatePath = path.join(here, '..', 'deploy', 'nginx.conf.template');
const deployDoc = path.join(here, '..', '..', '..', 'docs', 'deploy.md');
const nginxBinary = process.env.PTC_NGINX || 'nginx';
const CALLS = 300;
const IN_FLIGHT = 8;
const KILL_AFTER = 100;  // calls answered before one instance is killed
const PUBLIC_NAME = 'mcp.example.test';  // a Host the instances accept through --allow-host

const pinned = configurations.find((c) => c.name === 'client 2.4.0 pinned');
const legacy = configurations.find((c) => c.name === 'sdk 1.32.2');

/// Every child this file starts, killed on any way out, a crash of the runner included.
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function track(proc) {
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  return proc;
}

/// Sends `signal`, then SIGKILL if the process has not exited within `ms`; resolves to its exit code.
async function stopProcess(proc, signal = 'SIGTERM', ms = 5000) {
  if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
  const exited = once(proc, 'exit');
  proc.kill(signal);
  const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
  const [code] = await exited;
  clearTimeout(timer);
  return code;
}

async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/// Resolves once something accepts connections on the port; rejects if `proc` exits first.
async function waitForPort(port, proc, describeFailure) {
  const deadline = Date.now() + 10000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(describeFailure());
    const connected = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('connect', () => socket.end(() => resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (connected) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after 10 s: ${describeFailure()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/// The committed template with its placeholders filled; a placeholder left over is a test error.
function nginxConfiguration(values) {
  const text = fs.readFileSync(templatePath, 'utf8').replace(/\{\{(\w+)\}\}/g, (whole, name) => {
    assert.ok(name in values, `the template names {{${name}}}, which the test does not fill`);
    return values[name];
  });
  return text;
}

async function startNginx(temp, port, servers) {
  const config = path.join(temp, 'nginx.conf');
  const address = (server) => new URL(server.url).host;
  fs.writeFileSync(config, nginxConfiguration({
    temp, listen: `127.0.0.1:${port}`, server_a: address(servers[0]), server_b: address(servers[1]),
    server_c: address(servers[2]),
  }));
  // Run as root (a container), nginx would hand its workers to "nobody", who cannot enter the private
  // temporary directory; as any other user it keeps the user it runs as.
  const globals = `daemon off; pid ${temp}/nginx.pid;${process.getuid?.() === 0 ? ' user root;' : ''}`;
  const proc = track(spawn(nginxBinary, ['-p', `${temp}/`, '-e', `${temp}/error.log`, '-c', config, '-g', globals],
    { stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  proc.stdout.on('data', (chunk) => { output += chunk; });
  proc.stderr.on('data', (chunk) => { output += chunk; });
  let spawnError = null;
  proc.on('error', (error) => { spawnError = error; });
  const failure = () => {
    if (spawnError) return `cannot run ${nginxBinary} (install nginx: scripts/setup.sh): ${spawnError.message}`;
    const log = fs.existsSync(`${temp}/error.log`) ? fs.readFileSync(`${temp}/error.log`, 'utf8') : '';
    return `nginx exited (${proc.exitCode ?? proc.signalCode}): ${output}${log}`;
  };
  // A failed spawn reports 'error' and no exit code; wait a turn so it is seen.
  await new Promise((resolve) => setImmediate(resolve));
  if (spawnError) throw new Error(failure());
  await waitForPort(port, proc, failure);
  return proc;
}

/// One raw POST through nginx with the given Host header: { status, body }.
function post(port, host, body) {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1', port, path: '/mcp', method: 'POST',
      headers: {
        Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover',
      },
    }, (response) => {
      let text = '';
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: text }));
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const discover = {
  jsonrpc: '2.0', id: 1, method: 'server/discover',
  params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {} } },
};

/// The access log's lines (log_format "upstreams"), each as { method, status, version, upstreams, statuses }.
function accessLog(temp) {
  return fs.readFileSync(path.join(temp, 'access.log'), 'utf8').split('\n').filter(Boolean).map((line) => {
    const match = /^(\S+) (\d+) (\S+) upstream=(.*) upstream_status=(.*)$/.exec(line);
    assert.ok(match, `an access log line the test cannot read: ${line}`);
    return { method: match[1], status: Number(match[2]), version: match[3], upstreams: match[4].split(', '),
      statuses: match[5].split(', ') };
  });
}

describe('three instances behind nginx', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-scale-out-'));
  const servers = [];
  let nginx = null;
  let port = 0;

  before(async () => {
    // The secret every instance shares: the key that seals input-required request state.
    const keyFile = path.join(temp, 'state.key');
    fs.writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    fs.chmodSync(keyFile, 0o600);
    for (let i = 0; i < 3; ++i) {
      const server = await startHttp(fixture, ['--state-key-file', keyFile, '--allow-host', PUBLIC_NAME]);
      track(server.proc);
      servers.push(server);
    }
    port = await freePort();
    nginx = await startNginx(temp, port, servers);
  });

  after(async () => {
    if (nginx) await stopProcess(nginx);
    const running = servers.filter((server) => server.proc.exitCode === null && server.proc.signalCode === null);
    const codes = await Promise.all(running.map((server) => stopProcess(server.proc)));
    fs.rmSync(temp, { recursive: true, force: true });
    assert.deepEqual(codes, running.map(() => 0), 'the instances still running exit 0 on SIGTERM');
  });

  test('docs/deploy.md shows this configuration exactly', () => {
    const blocks = [...fs.readFileSync(deployDoc, 'utf8').matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.ok(blocks.includes(fs.readFileSync(templatePath, 'utf8')),
      'docs/deploy.md has no ```nginx block equal to tests/mcp/deploy/nginx.conf.template');
  });

  test('the Host the client used reaches the instances, which accept only their own names', async () => {
    const allowed = await post(port, PUBLIC_NAME, discover);
    assert.equal(allowed.status, 200, allowed.body);
    assert.match(allowed.body, /"supportedVersions"/);
    const refused = await post(port, 'attacker.example', discover);
    assert.equal(refused.status, 403, refused.body);
    assert.match(refused.body, /the Host header names no host this server serves/);
  });

  test('a 2025 session stays on one instance', async () => {
    const client = await connect(legacy, { url: `http://127.0.0.1:${port}/mcp` });
    try {
      for (let i = 0; i < 20; ++i) {
        const result = await client.callTool({ name: 'add', arguments: { a: i, b: 1 } });
        assert.deepEqual(result.structuredContent, { result: i + 1 });
      }
    } finally {
      await client.close();
    }
    const sessionLines = accessLog(temp).filter((line) => line.version !== '2026-07-28');
    const used = new Set(sessionLines.flatMap((line) => line.upstreams));
    assert.equal(used.size, 1, `the session's requests went to ${[...used].join(', ')}`);
  });

  test('progress streams through unbuffered, and a client that gives up cancels the call behind nginx', async () => {
    const client = await connect(pinned, { url: `http://127.0.0.1:${port}/mcp` });
    const controller = new AbortController();
    try {
      // 'wait' reports progress, then waits to be cancelled: the report must reach the client through
      // nginx while the call still runs.
      await assert.rejects(callWithOptions(client, { name: 'wait', arguments: {} }, {
        signal: controller.signal,
        onprogress: () => controller.abort(),
      }));
    } finally {
      await client.close();
    }
    // Closing the response stream is how a 2026-07-28 call is cancelled; nginx must pass the close on
    // to the instance that runs it, whichever that is.
    const deadline = Date.now() + 10000;
    for (;;) {
      let cancelled = 0;
      for (const server of servers) {
        const direct = await connect(pinned, { url: server.url });
        cancelled += (await direct.callTool({ name: 'stats', arguments: {} })).structuredContent.cancelled;
        await direct.close();
      }
      if (cancelled === 1) break;
      assert.ok(Date.now() < deadline, `the call was not cancelled within 10 s (${cancelled} cancelled)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  test('stateless calls survive an instance killed mid-run', async () => {
    const earlier = accessLog(temp).length;  // the lines of the tests before this one
    const client = await connect(pinned, { url: `http://127.0.0.1:${port}/mcp` });
    const victim = servers[1];
    const failures = [];
    let next = 0;
    let answered = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < CALLS) {
        const i = next++;
        try {
          // A call cut off mid-answer would wait for the client's default timeout of 60 s.
          const result = await client.callTool({ name: 'add', arguments: { a: i, b: 1000000 } }, { timeout: 10000 });
          const text = result.content.map((c) => c.text).join('');
          if (result.isError || result.structuredContent !== i + 1000000 || text !== String(i + 1000000))
            failures.push(`call ${i}: ${JSON.stringify(result)}`);
        } catch (error) {
          failures.push(`call ${i}: ${error.message}`);
        }
        if (++answered === KILL_AFTER) victim.proc.kill('SIGKILL');
      }
    };
    try {
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    } finally {
      await client.close();
    }
    assert.deepEqual(failures, [], `${failures.length} of ${CALLS} calls lost`);
    assert.equal(answered, CALLS);
    assert.equal(victim.proc.signalCode, 'SIGKILL');

    // nginx spread the calls, and moved the ones that met the dead instance to live ones.
    const victimAddress = new URL(victim.url).host;
    const calls = accessLog(temp).slice(earlier).filter((line) => line.method === 'POST');
    assert.ok(calls.every((line) => line.version === '2026-07-28'), 'the pinned client sent only 2026-07-28');
    const served = new Map();
    for (const line of calls) served.set(line.upstreams.at(-1), (served.get(line.upstreams.at(-1)) ?? 0) + 1);
    assert.equal(served.size, 3, `every instance served calls: ${JSON.stringify([...served])}`);
    const retried = calls.filter((line) => line.upstreams.length > 1);
    assert.ok(retried.length >= 1, 'at least one call met the dead instance and was retried on another');
    for (const line of retried) {
      assert.equal(line.upstreams[0], victimAddress, JSON.stringify(line));
      assert.equal(line.statuses.at(-1), '200', JSON.stringify(line));
    }
    const unanswered = calls.filter((line) => line.status !== 200);
    assert.deepEqual(unanswered, [], 'every call was answered 200 through nginx');
    console.log(`${CALLS} calls, ${IN_FLIGHT} in flight, in ${Date.now() - started} ms; served by ` +
                `${JSON.stringify(Object.fromEntries(served))}; ${retried.length} retried after the kill`);
  });
});
