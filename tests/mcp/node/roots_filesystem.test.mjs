// `mcp --roots-filesystem BOUND`: a tool's filesystem is the calling client's roots, inside the
// operator's bound. Run with the official clients in both eras, over stdio and HTTP, against the fixture
// server's read_file and write_file: a root's files are readable, what lies outside is not (climbing,
// a symlink, a root beyond the bound), a failed call's writes are undone, and a 2025 session asks again
// once the client says its roots changed (2026-07-28 asks on every call).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { callWithOptions, configurations, connect, fixture, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');
process.env.PTC_FIXTURE_CLIENT_TOOLS = '1';
const timeout = 30000;
const modern = (configuration) => configuration.version === '2026-07-28';
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
// A string result: {result} in structured content up to 2025-11-25, the value itself in 2026-07-28.
const value = (configuration, result) => (modern(configuration) ? result.structuredContent : result.structuredContent.result);

/// bound/app, bound/lib and outside/, each with a file; bound/escape is a symlink to outside/.
function tree() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-roots-'));
  for (const [dir, file, content] of [['bound/app', 'a.txt', 'app'], ['bound/lib', 'b.txt', 'lib'], ['outside', 'secret.txt', 'no']]) {
    fs.mkdirSync(path.join(base, dir), { recursive: true });
    fs.writeFileSync(path.join(base, dir, file), content);
  }
  fs.symlinkSync(path.join(base, 'outside'), path.join(base, 'bound/escape'));
  return base;
}

const root = (base, dir, name) => ({ uri: pathToFileURL(path.join(base, dir)).href, name });

describe('a session confined to the client\'s roots', { concurrency: 4 }, () => {
  const base = tree();
  after(() => fs.rmSync(base, { recursive: true, force: true }));
  const flags = ['--roots-filesystem', path.join(base, 'bound')];

  for (const transportName of ['stdio', 'http']) {
    for (const configuration of configurations) {
      describe(`${configuration.name} over ${transportName}`, { concurrency: 1 }, () => {
        const state = { roots: [root(base, 'bound/app', 'app')], asked: 0, client: null, http: null };
        before(async () => {
          state.http = transportName === 'http' ? await startHttp(fixture, flags) : null;
          const server = state.http ? { url: state.http.url } : { binary: fixture, args: flags };
          state.client = await connect(configuration, server, {
            'roots/list': () => {
              state.asked += 1;
              return { roots: state.roots };
            },
          });
        }, { timeout });
        after(async () => {
          await state.client?.close();
          if (state.http) assert.equal(await state.http.stop(), 0);
        }, { timeout });

        const call = async (name, args) => {
          let rounds = 0;
          const result = await callWithOptions(state.client, { name, arguments: args }, {
            onprogress: (p) => {
              if (/^Fulfilling input required/.test(p.message ?? '')) rounds += 1;
            },
          });
          return { result, rounds };
        };

        test('one root is the filesystem: its files are read, nothing above it', { timeout }, async () => {
          const asked = state.asked;
          const { result, rounds } = await call('read_file', { path: 'a.txt' });
          assert.equal(result.isError, false, text(result));
          assert.equal(value(configuration, result), 'app');
          assert.equal(rounds, modern(configuration) ? 1 : 0);
          const climbing = await call('read_file', { path: '../lib/b.txt' });
          assert.equal(climbing.result.isError, true);
          assert.match(text(climbing.result), /Path '\.\.\/lib\/b\.txt' escapes the filesystem root\./);
          // 2025 asks once per session; 2026-07-28 on every call.
          assert.equal(state.asked - asked, modern(configuration) ? 2 : (asked === 0 ? 1 : 0));
        });

        test('a failed call\'s write is undone in the root\'s directory', { timeout }, async () => {
          const file = path.join(base, 'bound/app', `undone-${transportName}-${configuration.name.replace(/\W/g, '_')}.txt`);
          const { result } = await call('write_file', { path: path.basename(file), text: 'x', fail: true });
          assert.equal(result.isError, true);
          assert.equal(fs.existsSync(file), false, 'the write of a failed call must not stay');
          const kept = await call('write_file', { path: path.basename(file), text: 'kept', fail: false });
          assert.equal(kept.result.isError, false, text(kept.result));
          assert.equal(fs.readFileSync(file, 'utf8'), 'kept');
        });

        test('new roots: several are mounted by name; a symlink or a root beyond the bound is left out', { timeout }, async () => {
          state.roots = [root(base, 'bound/app', 'app'), root(base, 'bound/lib', 'lib'), root(base, 'outside', 'out'),
            root(base, 'bound/escape', 'escape')];
          if (!modern(configuration)) await state.client.sendRootsListChanged();
          // The notification and the next call travel apart over HTTP: ask until the new roots are seen.
          let lib;
          for (let attempt = 0; attempt < 50; attempt += 1) {
            lib = await call('read_file', { path: 'lib/b.txt' });
            if (!lib.result.isError) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          assert.equal(lib.result.isError, false, text(lib.result));
          assert.equal(value(configuration, lib.result), 'lib');
          assert.equal(value(configuration, (await call('read_file', { path: 'app/a.txt' })).result), 'app');
          for (const outside of ['out/secret.txt', 'escape/secret.txt']) {
            const refused = await call('read_file', { path: outside });
            assert.equal(refused.result.isError, true, outside);
            assert.match(text(refused.result), /is outside the mounted directories\./);
          }
        });
      });
    }
  }

  describe('a client that declares no roots', () => {
    test('gets a filesystem that refuses every path', { timeout }, async () => {
      const client = await connect(configurations[0], { binary: fixture, args: flags });
      try {
        const result = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
        assert.equal(result.isError, true);
        assert.match(text(result), /Path 'a\.txt' is outside the mounted directories\./);
      } finally {
        await client.close();
      }
    });
  });
});
