// How a remote server's sign-in state reads in the Servers view, the quick picks and the tooltip.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { AuthStatus } from '../../src/core/auth/authStatus';
import { emptyFeatures, type ServerInfo, type ServerState } from '../../src/core/host/serverInfo';
import { describeAuth, describeState, serverContextValue, serverTooltip, stateExplanation } from '../../src/core/presentation/serverPresentation';
import { repoRoot } from './helpers';

function remote(state: ServerState, auth?: AuthStatus): ServerInfo {
  return {
    id: 'user::remote',
    name: 'remote',
    scope: { kind: 'user', key: 'user', label: 'User', configPath: '/u/mcp.json' },
    definition: { type: 'http', url: 'https://mcp.example.com/mcp', headers: {} },
    state,
    features: { ...emptyFeatures(), tools: [{ name: 't', inputSchema: { type: 'object' } }] },
    crashCount: 0,
    auth,
  };
}

const signedIn: AuthStatus = { kind: 'signedIn', account: 'alice@example.com', authorizationServer: 'auth.example.com' };

describe('sign-in state in the UI', () => {
  it('describes each sign-in state, naming the account or else the authorization server', () => {
    assert.strictEqual(describeAuth(signedIn), 'signed in as alice@example.com');
    assert.strictEqual(describeAuth({ kind: 'signedIn', authorizationServer: 'auth.example.com' }), 'signed in at auth.example.com');
    assert.strictEqual(describeAuth({ kind: 'needsSignIn' }), 'needs sign-in');
    assert.strictEqual(describeAuth({ kind: 'failed', message: 'x' }), 'sign-in failed');
    assert.strictEqual(describeAuth(undefined), undefined);
  });

  it('shows who is signed in next to a running server, and why a server is in error', () => {
    assert.strictEqual(describeState(remote({ kind: 'running' }, signedIn)), 'running · 1 tool · signed in as alice@example.com');
    assert.strictEqual(describeState(remote({ kind: 'running' })), 'running · 1 tool');
    assert.strictEqual(describeState(remote({ kind: 'error', message: 'Sign-in was declined.' }, { kind: 'needsSignIn' })), 'needs sign-in');
    assert.strictEqual(describeState(remote({ kind: 'error', message: 'refused' }, { kind: 'failed', message: 'refused' })), 'sign-in failed');
    assert.strictEqual(describeState(remote({ kind: 'error', message: 'HTTP 500' }, signedIn)), 'error');
  });

  it('offers signing in from the error a declined sign-in left, and the log for other failures', () => {
    const declined = stateExplanation(remote({ kind: 'error', message: 'Sign-in was declined. Use "MCP Host: Sign In to Server" to try again.' }, { kind: 'needsSignIn' }))!;
    assert.strictEqual(declined.action, 'signIn');
    assert.strictEqual(declined.icon.id, 'account');
    assert.match(declined.tooltip, /Click to sign in\.$/);
    const failed = stateExplanation(remote({ kind: 'error', message: 'redirect mismatch' }, { kind: 'failed', message: 'redirect mismatch' }))!;
    assert.strictEqual(failed.action, 'showOutput');
  });

  it('puts the account in the tooltip', () => {
    assert.match(serverTooltip(remote({ kind: 'running' }, signedIn)), /\*\*Account:\*\* signed in as alice@example\\\.com/);
    assert.doesNotMatch(serverTooltip(remote({ kind: 'running' })), /Account/);
  });

  it('carries the sign-in state in the context value, after the server state', () => {
    assert.strictEqual(serverContextValue(remote({ kind: 'running' }, signedIn)), 'mcpServer.running.signedIn');
    assert.strictEqual(serverContextValue(remote({ kind: 'error', message: 'declined' }, { kind: 'needsSignIn' })), 'mcpServer.error.needsSignIn');
    assert.strictEqual(serverContextValue(remote({ kind: 'error', message: 'x' }, { kind: 'failed', message: 'x' })), 'mcpServer.error.signInFailed');
    assert.strictEqual(serverContextValue(remote({ kind: 'running' })), 'mcpServer.running', 'a server that never asked');
  });

  it('offers the server menus by state, and Sign In / Sign Out by sign-in state', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
    };
    const serverMenus = pkg.contributes.menus['view/item/context'].filter((m) => m.when?.includes('view == mcpHost.servers'));
    /** The commands a server item shows, inline and in its context menu. */
    const offered = (info: ServerInfo) => {
      const contextValue = serverContextValue(info);
      const shown = serverMenus.filter((m) => {
        const clause = /viewItem (==|=~) (\S+)/.exec(m.when!);
        if (!clause) return false;
        const [, op, value] = clause;
        return op === '==' ? value === contextValue : new RegExp(value.slice(1, value.lastIndexOf('/'))).test(contextValue);
      });
      const names = (inline: boolean) =>
        shown.filter((m) => m.group?.startsWith('inline') === inline).map((m) => m.command.replace('mcpHost.', '')).sort();
      return { inline: names(true), menu: names(false) };
    };
    assert.deepStrictEqual(offered(remote({ kind: 'error', message: 'declined' }, { kind: 'needsSignIn' })), {
      inline: ['restartServer', 'showOutput', 'signInToServer', 'startServer'],
      menu: ['restartServer', 'showOutput', 'signInToServer', 'signOutOfServer', 'startServer'],
    });
    assert.deepStrictEqual(offered(remote({ kind: 'running' }, signedIn)), {
      inline: ['restartServer', 'showOutput', 'stopServer'],
      menu: ['restartServer', 'showOutput', 'signOutOfServer', 'stopServer'],
    });
    assert.deepStrictEqual(offered(remote({ kind: 'error', message: 'x' }, { kind: 'failed', message: 'x' })).menu, [
      'restartServer',
      'showOutput',
      'signInToServer',
      'signOutOfServer',
      'startServer',
    ]);
    assert.deepStrictEqual(offered(remote({ kind: 'stopped' })), {
      inline: ['restartServer', 'showOutput', 'startServer'],
      menu: ['restartServer', 'showOutput', 'startServer'],
    });
  });
});
