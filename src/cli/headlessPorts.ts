// The host's ports answered without a user: memory for storage, stderr for logs, and fixed answers where the
// extension would ask (sign in: yes; elicitation: accept with the schema's defaults; sampling: declined).
import { ProtocolError, type FetchLike } from '@modelcontextprotocol/client';
import type { AuthInteraction, SecretStore } from '../core/auth/authPorts';
import { defaultsOf, formFromSchema } from '../core/features/elicitation/formModel.lazy';
import type { ClientFeature } from '../core/host/clientFeature';
import { Emitter } from '../core/common/events';
import type { KeyValueStore } from '../core/host/hostPorts';
import type { LogLevelName, ServerLog, ServerLogFactory } from '../core/common/log';

export class MemoryStore implements KeyValueStore {
  private readonly data = new Map<string, unknown>();

  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
  }
}

/** Secrets for the life of the process: a headless run signs in afresh each time. */
export class MemorySecretStore implements SecretStore {
  readonly data = new Map<string, string>();

  async get(key: string): Promise<string | undefined> {
    return this.data.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.data.delete(key);
  }
}

/** Writes every server log line to a stream (stderr), prefixed with its level. */
export function streamLogs(write: (line: string) => void, logLevel: LogLevelName = 'debug'): ServerLogFactory {
  return {
    create: (_id, name) => {
      const line = (level: string) => (m: string) => write(`[${name}] [${level}] ${m}`);
      const levelChanged = new Emitter<LogLevelName>();
      const log: ServerLog & { dispose(): void } = {
        trace: line('trace'),
        debug: line('debug'),
        info: line('info'),
        warn: line('warn'),
        error: line('error'),
        logLevel,
        onDidChangeLogLevel: levelChanged.event,
        dispose: () => levelChanged.dispose(),
      };
      return log;
    },
  };
}

/**
 * Signing in without a browser: consent is given, and the authorization endpoint, which answers at once with a
 * redirect (no login page), is followed by hand to read the code from `Location`.
 */
export function headlessInteraction(redirectUrl: string, fetchFn: FetchLike = fetch): AuthInteraction {
  return {
    redirectUrl: async () => redirectUrl,
    confirmSignIn: async () => true,
    async authorize(authorizationUrl, signal) {
      const response = await fetchFn(authorizationUrl, { redirect: 'manual', signal });
      const location = response.headers.get('location');
      await response.text().catch(() => undefined);
      if (!location) throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect.`);
      return new URL(location, authorizationUrl).searchParams;
    },
  };
}

/** Form elicitation answered with the requested schema's defaults; a schema outside the spec's subset is declined. */
export const acceptDefaultsElicitation: ClientFeature = {
  capabilities: () => ({ elicitation: { form: {} } }),
  install({ handlers, log }) {
    handlers.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; requestedSchema?: unknown; message?: string };
      if (params.mode === 'url') return { action: 'decline' as const };
      const form = formFromSchema(params.requestedSchema);
      if (!form.ok) {
        log.warn(`Elicitation declined: ${form.error}`);
        return { action: 'decline' as const };
      }
      const content = defaultsOf(form.form) as Record<string, string | number | boolean | string[]>;
      log.info(`Elicitation "${params.message ?? ''}" accepted with ${JSON.stringify(content)}`);
      return { action: 'accept' as const, content };
    });
  },
};

/** Sampling is declared (servers may ask) and always declined: there is no model to ask. */
export const declineSampling: ClientFeature = {
  capabilities: () => ({ sampling: {} }),
  install({ handlers, log }) {
    handlers.setRequestHandler('sampling/createMessage', async () => {
      log.info('Sampling request declined: no language model in the headless client');
      throw new ProtocolError(-1, 'The user declined the sampling request.');
    });
  },
};
