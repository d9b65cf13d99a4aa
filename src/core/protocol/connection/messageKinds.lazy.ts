// What kind of JSON-RPC message one is, told by its shape. For messages a transport already delivered (the SDK's
// `deserializeMessage` validated them against its schema) or the SDK built: the SDK's own `isJSONRPCRequest` and
// friends run a zod parse of the whole message, which for every message of every request costs more CPU than our
// whole path of a tool call.
import type { JSONRPCErrorResponse, JSONRPCMessage, JSONRPCRequest, JSONRPCResultResponse } from '@modelcontextprotocol/client';

export const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;

export const isResultResponse = (m: JSONRPCMessage): m is JSONRPCResultResponse => 'result' in m && 'id' in m && !('method' in m);

export const isErrorResponse = (m: JSONRPCMessage): m is JSONRPCErrorResponse => 'error' in m && !('method' in m);
