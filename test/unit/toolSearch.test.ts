import * as assert from 'assert';
import { performance } from 'perf_hooks';
import { FIELD_LIMITS, mentionedServers, ToolSearchIndex, tokenize } from '../../src/core/features/tools/toolSearch';
import { toolNameMap, type NamedTool } from '../../src/core/features/tools/toolNames';
import { toolCatalogue } from './toolCatalogue';

const catalogue = toolCatalogue();
const named = (): NamedTool[] =>
  toolNameMap(catalogue.flatMap((s) => s.tools.map((tool) => ({ serverId: `id-${s.name}`, serverName: s.name, consentSubject: s.name, tool })))).tools;

/** What users ask for, and the tool they mean (server/tool). */
const QUESTIONS: [string, string][] = [
  ['open a new GitHub issue about the login crash', 'github/create_issue'],
  ['create a jira ticket for the failing build', 'jira/createIssue'],
  ['list the tables in the postgres database', 'postgres/list_tables'],
  ['send a message to the team on slack', 'slack/send_message'],
  ['delete the old kubernetes pod', 'kubernetes/delete-pod'],
  ['show my upcoming google calendar events', 'google-calendar/list_events'],
  ['refund a stripe customer', 'stripe/create_refund'],
  ['read the content of a file on the local file system', 'filesystem/get_file_content'],
  ['list the open merge requests in gitlab', 'gitlab/list_merge_requests'],
  ['update the kubernetes deployment', 'kubernetes/update-deployment'],
  ['list recent sentry exceptions', 'sentry/list_error_issues'],
  ['show the on-call schedules in pagerduty', 'pagerduty/list_on_call_schedules'],
  ['create a new deal in hubspot', 'hubspot/create_deal'],
  ['create a new branch in the github repo', 'github/create_branch'],
  ['create a document in google drive', 'google-drive/create_file'],
  ['create an s3 bucket on aws', 'aws/createS3Bucket'],
  ['list running docker containers', 'docker/list-containers'],
  ['get the value of a redis key', 'redis/get_key'],
  ['add a card to the trello board', 'trello/create-card'],
  ['send an email with gmail', 'gmail/send_email'],
  ['list the sprints of the jira board', 'jira/listSprints'],
  ['delete a row from the mysql table', 'mysql/delete_row'],
  ['list the pipelines of my gitlab project', 'gitlab/list_pipelines'],
  ['create a new notion page', 'notion/create_page'],
  ['list the datadog monitors that alert', 'datadog/list_monitors'],
];

describe('tool search', () => {
  it('splits names the way servers write them: camelCase, snake_case, kebab-case, acronyms and digits', () => {
    assert.deepStrictEqual(tokenize('createIssue'), ['creat', 'issu', 'createissu']);
    assert.deepStrictEqual(tokenize('create_issue'), ['creat', 'issu']);
    assert.deepStrictEqual(tokenize('create-issue'), ['creat', 'issu']);
    assert.deepStrictEqual(tokenize('getHTTPResponse'), ['get', 'http', 'respons', 'gethttprespons']);
    assert.deepStrictEqual(tokenize('createS3Bucket'), ['creat', 's', '3', 'bucket', 'creates3bucket']);
    assert.deepStrictEqual(tokenize('GitHub'), ['git', 'hub', 'github']);
    assert.deepStrictEqual(tokenize('List the open Issues of a repository'), ['list', 'open', 'issu', 'repository']);
    assert.deepStrictEqual(tokenize('créer_dépôt'), ['créer', 'dépôt']);
  });

  it('reads hostile server text only up to its cap, in one pass', () => {
    const huge = `${'a'.repeat(5_000_000)} b`;
    assert.deepStrictEqual(tokenize(huge, FIELD_LIMITS.description), ['a'.repeat(FIELD_LIMITS.description)]);
    const words = 'x '.repeat(1_000_000);
    assert.ok(tokenize(words, 10_000_000).length <= 400);
    const index = new ToolSearchIndex([{ serverName: 'evil', tool: { name: 'x'.repeat(100_000), description: 'zz-'.repeat(1_000_000) } }]);
    assert.deepStrictEqual(index.search('zz').length, 1);
  });

  it(`reaches the intended tool among ${catalogue.length} servers × 40 tools in one search, as the top result: ${QUESTIONS.length} questions`, () => {
    const tools = named();
    assert.strictEqual(tools.length, 2000);
    const index = new ToolSearchIndex(tools);
    for (const [question, intended] of QUESTIONS) {
      const top = index.search(question, 3).map((m) => `${m.item.serverName}/${m.item.tool.name}`);
      assert.strictEqual(top[0], intended, `"${question}" should find ${intended} first, found ${top.join(', ')}`);
    }
  });

  it('returns nothing for words no tool has, and at most the limit, best first', () => {
    const index = new ToolSearchIndex(named());
    assert.deepStrictEqual(index.search('zzyzx quux'), []);
    assert.deepStrictEqual(index.search(''), []);
    const hits = index.search('issue', 7);
    assert.strictEqual(hits.length, 7);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
  });

  it('finds the servers a request names, by their words', () => {
    const names = ['github', 'google-calendar', 'jira', 'everything'];
    assert.deepStrictEqual(mentionedServers('list my GitHub issues and my Google Calendar', names), ['github', 'google-calendar']);
    assert.deepStrictEqual(mentionedServers('what is on my calendar', names), []);
    assert.deepStrictEqual(mentionedServers('', names), []);
  });

  it('searches 2,000 tools in well under 5 ms (printed, not asserted)', () => {
    const tools = named();
    let t = performance.now();
    const index = new ToolSearchIndex(tools);
    const build = performance.now() - t;
    for (const [q] of QUESTIONS) index.search(q); // warm up
    const runs = 20;
    t = performance.now();
    for (let i = 0; i < runs; i++) for (const [q] of QUESTIONS) index.search(q, 5);
    const perSearch = (performance.now() - t) / (runs * QUESTIONS.length);
    console.log(`      index of 2,000 tools built in ${build.toFixed(1)} ms; one search ${perSearch.toFixed(3)} ms`);
  });
});
