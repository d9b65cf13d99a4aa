// The session for a use of a server (a call, a prompt, a read): where the port can start a dormant server, it does
// (ServerManager.openSession); otherwise it is the running session. Apart from serverSession.ts, whose error class
// must stay in one bundle.
import type { ServerSession, SessionPort } from './serverSession';

export async function sessionForUse(port: SessionPort, serverId: string, use: string, signal?: AbortSignal): Promise<ServerSession> {
  return port.openSession ? port.openSession(serverId, use, signal) : port.session(serverId);
}
