// A generated but realistic catalogue of MCP tools: 50 servers of the kinds users run (GitHub, Jira, Postgres, the
// file system, Slack, …), 40 tools each, named in the styles servers use (snake_case, camelCase, kebab-case) and
// described the way their servers describe them. Many servers share verbs and nouns (every tracker creates issues,
// every chat sends messages), so a search has to tell them apart by what the request says.
import type { Tool } from '@modelcontextprotocol/client';

type Style = 'snake' | 'camel' | 'kebab';

/** A server: its name, how it calls itself, its naming style, and eight things it manages ("noun|what it also is"). */
const SERVERS: [string, string, Style, string[]][] = [
  ['github', 'GitHub', 'snake', ['issue', 'pull request', 'repository|repo', 'branch', 'release', 'workflow run|ci action', 'gist', 'label']],
  ['gitlab', 'GitLab', 'snake', ['issue', 'merge request', 'project|repository', 'pipeline|ci job', 'branch', 'milestone', 'snippet', 'tag']],
  ['bitbucket', 'Bitbucket', 'camel', ['pull request', 'repository', 'branch', 'pipeline', 'commit comment', 'workspace', 'deployment', 'webhook']],
  ['jira', 'Jira', 'camel', ['issue|ticket', 'sprint', 'epic', 'board', 'worklog|time spent', 'issue comment', 'version', 'component']],
  ['linear', 'Linear', 'camel', ['issue|ticket', 'cycle', 'team', 'project', 'roadmap', 'issue label', 'triage rule', 'customer request']],
  ['asana', 'Asana', 'snake', ['task|todo', 'project', 'section', 'portfolio', 'goal', 'task comment', 'tag', 'team membership']],
  ['trello', 'Trello', 'kebab', ['card', 'board', 'list column', 'checklist', 'card attachment', 'card member', 'power-up', 'board label']],
  ['notion', 'Notion', 'snake', ['page', 'database', 'block', 'page comment', 'database property', 'workspace user', 'template', 'synced block']],
  ['confluence', 'Confluence', 'camel', ['page|wiki article', 'space', 'blog post', 'page attachment', 'inline comment', 'page restriction', 'page label', 'whiteboard']],
  ['slack', 'Slack', 'snake', ['message|chat post', 'channel', 'thread reply', 'reaction|emoji', 'user group', 'reminder', 'bookmark', 'scheduled message']],
  ['discord', 'Discord', 'snake', ['message', 'channel', 'guild role', 'guild member', 'thread', 'webhook', 'invite', 'scheduled event']],
  ['teams', 'Microsoft Teams', 'camel', ['chat message', 'team channel', 'meeting', 'team member', 'tab', 'channel reply', 'presence status', 'call record']],
  ['gmail', 'Gmail', 'snake', ['email|mail message', 'draft', 'label', 'thread', 'filter', 'attachment', 'forwarding address', 'vacation responder']],
  ['outlook', 'Outlook', 'camel', ['mail message|email', 'calendar event', 'contact', 'mail folder', 'mail rule', 'meeting room', 'category', 'out of office reply']],
  ['google-calendar', 'Google Calendar', 'snake', ['event|meeting', 'calendar', 'attendee', 'free busy slot', 'reminder', 'recurring event', 'room booking', 'calendar acl']],
  ['google-drive', 'Google Drive', 'snake', ['file|document', 'folder', 'permission|sharing', 'shared drive', 'file revision', 'file comment', 'spreadsheet', 'presentation']],
  ['dropbox', 'Dropbox', 'snake', ['file', 'folder', 'shared link', 'file request', 'paper doc', 'team folder', 'file version', 'file lock']],
  ['filesystem', 'the local file system', 'snake', ['file', 'directory|folder', 'file content', 'symlink', 'file permission', 'file metadata', 'directory tree', 'temporary file']],
  ['postgres', 'PostgreSQL', 'snake', ['table', 'row|record', 'sql query', 'index', 'schema', 'view', 'database role', 'migration']],
  ['mysql', 'MySQL', 'snake', ['table', 'row|record', 'sql query', 'index', 'stored procedure', 'trigger', 'database user', 'replica']],
  ['sqlite', 'SQLite', 'snake', ['table', 'row', 'sql query', 'index', 'database file', 'view', 'backup', 'pragma']],
  ['mongodb', 'MongoDB', 'camel', ['document', 'collection', 'aggregation pipeline', 'index', 'database', 'change stream', 'cluster', 'atlas user']],
  ['redis', 'Redis', 'snake', ['key', 'hash field', 'list entry', 'set member', 'stream entry', 'pub sub channel', 'ttl expiry', 'cache entry']],
  ['elasticsearch', 'Elasticsearch', 'snake', ['index', 'document', 'search query', 'mapping', 'alias', 'ingest pipeline', 'snapshot', 'cluster node']],
  ['snowflake', 'Snowflake', 'snake', ['warehouse', 'table', 'sql query', 'stage', 'stream', 'task', 'share', 'role grant']],
  ['bigquery', 'BigQuery', 'camel', ['dataset', 'table', 'sql query job', 'view', 'routine', 'reservation', 'data transfer', 'table snapshot']],
  ['aws', 'Amazon Web Services', 'camel', ['ec2 instance', 's3 bucket', 'lambda function', 'iam role', 'cloudwatch alarm', 'rds database', 'security group', 'sqs queue']],
  ['azure', 'Microsoft Azure', 'camel', ['virtual machine', 'storage account', 'resource group', 'function app', 'key vault secret', 'app service', 'cosmos container', 'role assignment']],
  ['gcp', 'Google Cloud', 'snake', ['compute instance', 'storage bucket', 'cloud run service', 'pubsub topic', 'iam policy', 'cloud sql instance', 'firewall rule', 'service account']],
  ['kubernetes', 'Kubernetes', 'kebab', ['pod', 'deployment', 'service', 'config map', 'secret', 'namespace', 'ingress', 'cron job']],
  ['docker', 'Docker', 'kebab', ['container', 'image', 'volume', 'network', 'compose stack', 'registry login', 'build cache', 'container log']],
  ['terraform', 'Terraform', 'snake', ['workspace', 'plan', 'apply run', 'state resource', 'module', 'provider', 'variable', 'output']],
  ['vercel', 'Vercel', 'camel', ['deployment', 'project', 'domain', 'environment variable', 'edge config', 'build log', 'team', 'alias']],
  ['netlify', 'Netlify', 'camel', ['site', 'deploy', 'form submission', 'build hook', 'dns record', 'function', 'environment variable', 'split test']],
  ['cloudflare', 'Cloudflare', 'snake', ['dns record', 'zone', 'worker script', 'kv namespace', 'r2 bucket', 'page rule', 'firewall rule', 'cache purge']],
  ['sentry', 'Sentry', 'snake', ['error issue|exception', 'event', 'release', 'project', 'alert rule', 'performance transaction', 'issue assignee', 'replay']],
  ['datadog', 'Datadog', 'snake', ['monitor|alert', 'dashboard', 'metric', 'log query', 'incident', 'slo', 'synthetic test', 'downtime']],
  ['pagerduty', 'PagerDuty', 'snake', ['incident', 'on-call schedule', 'escalation policy', 'service', 'maintenance window', 'incident note', 'responder', 'alert']],
  ['grafana', 'Grafana', 'kebab', ['dashboard', 'panel', 'data source', 'alert rule', 'folder', 'annotation', 'team', 'prometheus query']],
  ['stripe', 'Stripe', 'snake', ['customer', 'payment intent', 'invoice', 'subscription', 'refund', 'product', 'price', 'payout']],
  ['shopify', 'Shopify', 'camel', ['product', 'order', 'customer', 'inventory level', 'collection', 'discount code', 'fulfillment', 'theme']],
  ['salesforce', 'Salesforce', 'camel', ['lead', 'opportunity|deal', 'account', 'contact', 'case', 'campaign', 'soql query', 'report']],
  ['hubspot', 'HubSpot', 'snake', ['contact', 'deal', 'company', 'ticket', 'marketing email', 'form', 'pipeline stage', 'note']],
  ['zendesk', 'Zendesk', 'snake', ['support ticket', 'ticket comment', 'end user', 'organization', 'macro', 'help center article', 'satisfaction rating', 'sla policy']],
  ['intercom', 'Intercom', 'camel', ['conversation', 'contact', 'company', 'help article', 'conversation note', 'tag', 'segment', 'ticket']],
  ['figma', 'Figma', 'snake', ['file', 'frame node', 'component', 'style', 'comment', 'version history', 'team project', 'image export']],
  ['airtable', 'Airtable', 'camel', ['record', 'table', 'base', 'field', 'view', 'record comment', 'webhook', 'automation']],
  ['google-sheets', 'Google Sheets', 'snake', ['spreadsheet', 'sheet tab', 'cell range|values', 'chart', 'named range', 'pivot table', 'conditional format', 'formula']],
  ['puppeteer', 'a headless browser', 'snake', ['page tab', 'screenshot', 'pdf printout', 'cookie', 'form input', 'page navigation', 'network request', 'console message']],
  ['spotify', 'Spotify', 'snake', ['playlist', 'track|song', 'album', 'artist', 'playback', 'queue item', 'saved show', 'listening history']],
];

const VERBS: [string, (noun: string, also: string, display: string) => string][] = [
  ['list', (n, a, d) => `List ${plural(n)}${a} in ${d}, with filters and pagination.`],
  ['get', (n, a, d) => `Get one ${n}${a} from ${d} by its id, with all its details.`],
  ['create', (n, a, d) => `Create a new ${n}${a} in ${d}.`],
  ['update', (n, a, d) => `Update an existing ${n}${a} in ${d}: change its fields.`],
  ['delete', (n, a, d) => `Delete a ${n}${a} from ${d}. This cannot be undone.`],
];

const plural = (n: string) => (n.endsWith('y') && !/[aeiou]y$/.test(n) ? `${n.slice(0, -1)}ies` : n.endsWith('s') || n.endsWith('x') || n.endsWith('sh') ? `${n}es` : `${n}s`);

function name(style: Style, words: string[]): string {
  if (style === 'snake') return words.join('_');
  if (style === 'kebab') return words.join('-');
  return words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join('');
}

export interface CatalogueServer {
  name: string;
  tools: Tool[];
}

/** 50 servers × 40 tools. */
export function toolCatalogue(): CatalogueServer[] {
  return SERVERS.map(([server, display, style, things]) => ({
    name: server,
    tools: things.flatMap((thing) => {
      const [noun, alias] = thing.split('|');
      const also = alias ? ` (${alias})` : '';
      const sends = noun.includes('message') || noun === 'email';
      return VERBS.map(([listed, described]) => {
        // Messages are sent, not created.
        const [verb, describe] = sends && listed === 'create' ? ['send', (n: string, a: string, d: string) => `Send a ${n}${a} in ${d}.`] : [listed, described];
        const words = [verb, ...(verb === 'list' ? [...noun.split(/[\s-]/).slice(0, -1), plural(noun.split(/[\s-]/).at(-1)!)] : noun.split(/[\s-]/))];
        return {
          name: name(style, words),
          ...(style === 'camel' ? { title: `${verb[0].toUpperCase()}${verb.slice(1)} ${verb === 'list' ? plural(noun) : noun}` } : {}),
          description: describe(noun, also, display),
          inputSchema: { type: 'object', properties: { [verb === 'list' ? 'query' : 'id']: { type: 'string' } } } as Tool['inputSchema'],
        };
      });
    }),
  }));
}
