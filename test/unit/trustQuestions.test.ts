import * as assert from 'assert';
import { SerialQueue } from '../../src/core/common/serialQueue';
import type { TrustFacts } from '../../src/core/config/trustFacts';
import type { ConfigScope } from '../../src/core/config/serverDefinition';
import type { TrustPrompt } from '../../src/core/host/hostPorts';
import { TrustQuestions } from '../../src/core/host/trustQuestions.lazy';
import { fixtureServer, waitFor } from './helpers';
import { blockOf, createKit, entry, stdio, waitForState, workspaceScope, type Kit } from './hostTestKit';

const folderA: ConfigScope = workspaceScope('/a', 'file:///a');
const folderB: ConfigScope = workspaceScope('/b', 'file:///b');
const def = (name: string, scope = folderA) => ({ name, scope, raw: stdio('node', [name]) });
const noFacts: TrustFacts = {};

describe('trust asked once per folder', function () {
  this.timeout(30_000);
  let asked: string[][];
  let many: (boolean | undefined)[];

  const prompt = (withMany: boolean): TrustPrompt => ({
    askTrust: async (d) => {
      asked.push([d.name]);
      return d.name !== 'no';
    },
    ...(withMany
      ? {
          askTrustMany: async (ds) => {
            asked.push(ds.map((q) => q.definition.name));
            return many;
          },
        }
      : {}),
  });

  beforeEach(() => {
    asked = [];
    many = [];
  });

  it("asks the new servers of one folder in one question, each folder's apart", async () => {
    const questions = new TrustQuestions(prompt(true), new SerialQueue(), 30);
    many = [true, false, undefined];
    const signal = new AbortController().signal;
    const answers = await Promise.all([
      questions.ask(def('a1'), noFacts, signal),
      questions.ask(def('a2'), noFacts, signal),
      questions.ask(def('b1', folderB), noFacts, signal),
      questions.ask(def('a3'), noFacts, signal),
    ]);
    assert.deepStrictEqual(asked, [['a1', 'a2', 'a3'], ['b1']]);
    assert.deepStrictEqual(answers, [true, false, true, undefined]);
  });

  it('gives the question for several the facts of each server (env file, stored inputs), as asked alone', async () => {
    const seen: TrustFacts[] = [];
    const questions = new TrustQuestions({ askTrust: async () => true, askTrustMany: async (qs) => (seen.push(...qs.map((q) => q.facts)), qs.map(() => true)) }, new SerialQueue(), 30);
    const signal = new AbortController().signal;
    const withEnv: TrustFacts = { envFile: { variables: { NODE_OPTIONS: '--require x' } } };
    const withInputs: TrustFacts = { storedInputs: ['token'] };
    await Promise.all([questions.ask(def('a1'), withEnv, signal), questions.ask(def('a2'), withInputs, signal)]);
    assert.deepStrictEqual(seen, [withEnv, withInputs]);
  });

  it('leaves out a question whose start was cancelled before it was asked', async () => {
    const questions = new TrustQuestions(prompt(true), new SerialQueue(), 30);
    const cancelled = new AbortController();
    const kept = new AbortController().signal;
    many = [true, true];
    const pending = [questions.ask(def('a1'), noFacts, kept), questions.ask(def('gone'), noFacts, cancelled.signal), questions.ask(def('a2'), noFacts, kept)];
    cancelled.abort();
    assert.deepStrictEqual(await Promise.all(pending), [true, undefined, true]);
    assert.deepStrictEqual(asked, [['a1', 'a2']]);
  });

  it('asks one by one when the prompt has no question for several', async () => {
    const questions = new TrustQuestions(prompt(false), new SerialQueue(), 30);
    const signal = new AbortController().signal;
    assert.deepStrictEqual(await Promise.all([questions.ask(def('yes'), noFacts, signal), questions.ask(def('no'), noFacts, signal)]), [true, false]);
    assert.deepStrictEqual(asked, [['yes'], ['no']]);
  });

  it('gives each start the failure when the question could not be asked', async () => {
    const failing: TrustPrompt = { askTrust: async () => true, askTrustMany: async () => Promise.reject(new Error('no UI')) };
    const questions = new TrustQuestions(failing, new SerialQueue(), 30);
    const signal = new AbortController().signal;
    const results = await Promise.allSettled([questions.ask(def('a1'), noFacts, signal), questions.ask(def('a2'), noFacts, signal)]);
    assert.deepStrictEqual(results.map((r) => r.status), ['rejected', 'rejected']);
  });

  describe('in the registry', () => {
    let kit: Kit;
    afterEach(() => kit?.manager.disposeAsync());

    it('keeps a start going when the configuration reloads unchanged while trust is being asked', async () => {
      let answer!: (trusted: boolean) => void;
      kit = createKit(
        { trustPrompt: { askTrust: () => new Promise<boolean>((resolve) => (answer = resolve)) } },
        { trustAllServers: false },
      );
      const basic = () => entry('one', stdio(process.execPath, [fixtureServer('basic-server.mjs'), 'one']));
      // updateScope, not kit.update: that would wait for the start, which waits for the answer.
      await kit.manager.updateScope(workspaceScope(), [basic()], []);
      await waitFor(() => answer, 'the trust question', 5000);
      await kit.manager.updateScope(workspaceScope(), [basic()], []);
      answer(true);
      await waitForState(kit, 'one', 'running');
    });

    it('starts the servers trusted in the one question and blocks the others', async () => {
      const batches: string[][] = [];
      kit = createKit(
        {
          trustPrompt: {
            askTrust: async () => assert.fail('asked alone'),
            askTrustMany: async (ds) => {
              batches.push(ds.map((q) => q.definition.name));
              return ds.map((q) => q.definition.name !== 'refused');
            },
          },
        },
        { trustAllServers: false },
      );
      const basic = (name: string) => entry(name, stdio(process.execPath, [fixtureServer('basic-server.mjs'), name]));
      await kit.update(workspaceScope(), [basic('one'), basic('refused'), basic('two')], []);
      await waitForState(kit, 'one', 'running');
      await waitForState(kit, 'two', 'running');
      const refused = await waitForState(kit, 'refused', 'blocked');
      assert.strictEqual(blockOf(refused)?.reason, 'untrusted');
      assert.deepStrictEqual(batches, [['one', 'refused', 'two']]);
    });

    it('without the part that gathers them (the command line), asks about each server alone and starts it as answered', async () => {
      const asked: string[] = [];
      kit = createKit(
        {
          trustQuestions: undefined,
          trustPrompt: {
            askTrust: async (d) => (asked.push(d.name), d.name !== 'refused'),
            askTrustMany: async () => assert.fail('asked together'),
          },
        },
        { trustAllServers: false },
      );
      const basic = (name: string) => entry(name, stdio(process.execPath, [fixtureServer('basic-server.mjs'), name]));
      await kit.update(workspaceScope(), [basic('one'), basic('refused')], []);
      await waitForState(kit, 'one', 'running');
      assert.strictEqual(blockOf(await waitForState(kit, 'refused', 'blocked'))?.reason, 'untrusted');
      assert.deepStrictEqual(asked.sort(), ['one', 'refused']);
    });
  });
});
