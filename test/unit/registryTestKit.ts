// The local MCP Registry of the tests (test/fixtures/registry/registry-server.mjs), started in the test process.
import * as path from 'path';
import { pathToFileURL } from 'url';
import { repoRoot } from './helpers';

export interface FixtureRegistry {
  url: string;
  requests: string[];
  servers: { name: string; version: string }[];
  close(): Promise<void>;
}

export async function startFixtureRegistry(options: { port?: number; servers?: unknown[]; maxLimit?: number } = {}): Promise<FixtureRegistry> {
  const module = (await import(pathToFileURL(path.join(repoRoot, 'test', 'fixtures', 'registry', 'registry-server.mjs')).href)) as {
    startRegistryServer(o: { port?: number; servers?: unknown[]; maxLimit?: number }): Promise<FixtureRegistry>;
  };
  return module.startRegistryServer(options);
}
