// The file a `jwtBearer` auth reads its assertion from (a Kubernetes projected service-account token, a token a
// workload's agent writes): read at each token request, as such files are rotated. Capped, and an absolute path only.
import { promises as fs } from 'fs';
import * as path from 'path';

/** A JWT is a few kilobytes; anything much larger is not one. */
const MAX_ASSERTION_BYTES = 64 * 1024;

export async function readAssertionFile(file: string): Promise<string> {
  if (!path.isAbsolute(file)) throw new Error(`"auth.assertionFile" must be an absolute path (use \${workspaceFolder} or \${userHome}), not "${file}".`);
  const handle = await fs.open(file, 'r').catch((e: NodeJS.ErrnoException) => {
    throw new Error(`Could not read the JWT-bearer assertion file ${file}: ${e.code ?? e.message}`);
  });
  try {
    const { size } = await handle.stat();
    if (size > MAX_ASSERTION_BYTES) throw new Error(`The JWT-bearer assertion file ${file} holds ${size} bytes: too large for a JWT.`);
    return (await handle.readFile('utf8')).trim();
  } finally {
    await handle.close();
  }
}
