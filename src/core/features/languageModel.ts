// The editor's language models as chat and sampling use them, in a shape of their own: the VS Code layer maps it one
// to one onto vscode.lm, and MCP content is converted into it in the core.

export type ModelContentPart = { kind: 'text'; text: string } | { kind: 'image'; mimeType: string; data: Uint8Array };

export type ModelPart =
  | ModelContentPart
  | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; content: ModelContentPart[] };

export interface ModelMessage {
  role: 'user' | 'assistant';
  parts: ModelPart[];
}

/** What a model streams back. A tool call's input is as the model wrote it: not always an object. */
export type ModelResponsePart = ModelContentPart | { kind: 'toolCall'; callId: string; name: string; input: unknown };

/** A tool as offered to the model: its unique model name, description and input schema (passed through). */
export interface ModelTool {
  name: string;
  description: string;
  inputSchema: object;
}

export interface ModelCapabilities {
  /** Images can go to it as data: the editor's API and the model both take them. */
  acceptsImages: boolean;
  /** It is offered tools. Models that say nothing about tool calling are; only an explicit "no" withholds them. */
  acceptsTools: boolean;
}

/** A chat model as the editor offers it. */
export interface LanguageModelInfo {
  id: string;
  name: string;
  vendor: string;
  family: string;
  capabilities: ModelCapabilities;
}

export interface ModelRequest {
  /** Instructions ahead of the conversation (models without a system role read them as the first user message). */
  systemPrompt?: string;
  messages: readonly ModelMessage[];
  tools?: readonly ModelTool[];
  /** `required`: the model must call one of `tools` (sampling's `toolChoice`). Default: it chooses. */
  toolMode?: 'auto' | 'required';
  /**
   * The limits a sampling server asked for. VS Code's API has no common option for them (model options differ by
   * provider), so sampling also enforces maxTokens and stop sequences on the answer itself.
   */
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
}

/** One language model. */
export interface LanguageModel {
  readonly info: LanguageModelInfo;
  /**
   * Streams the answer; rejects (or throws while streaming) when the model API refuses the request. Images in
   * assistant messages, or for a model that does not take them, reach it as a text note.
   */
  send(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelResponsePart>;
  countTokens(text: string): Promise<number>;
}

/** The language models the editor offers (VS Code's `vscode.lm`). */
export interface LanguageModelCatalog {
  list(): Promise<LanguageModelInfo[]>;
  /** Rejects when the model is no longer available. */
  get(model: LanguageModelInfo): Promise<LanguageModel>;
}

/** An image from MCP, where binary data travels as base64; models take the bytes. */
export const imageFromBase64 = (mimeType: string, data: string): ModelContentPart => ({
  kind: 'image',
  mimeType,
  data: new Uint8Array(Buffer.from(data, 'base64')),
});

export const base64Of = (data: Uint8Array): string => Buffer.from(data).toString('base64');
