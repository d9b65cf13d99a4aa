// The chat's language model as the tool loop's ChatModel: neutral messages to LanguageModelChatMessages, and the
// streamed answer back to text and tool calls.
import * as vscode from 'vscode';
import type { ChatModel, ModelEvent, ModelTool } from '../../core/features/chat/chatToolLoop';
import type { ModelContentPart, ModelMessage, ModelPart } from '../../core/features/chat/contentConversion';

/** Image data parts arrived after the API version this extension is typed against; use them where they exist. */
type DataPartClass = new (data: Uint8Array, mimeType: string) => unknown;
const dataPartClass = (): DataPartClass | undefined => (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

interface ModelCapabilities {
  supportsImageToText?: boolean;
  supportsToolCalling?: boolean;
}
const capabilitiesOf = (model: vscode.LanguageModelChat): ModelCapabilities =>
  (model as unknown as { capabilities?: ModelCapabilities }).capabilities ?? {};

/** Whether images can go to this model as data (both the API and the model must take them). */
export const acceptsImages = (model: vscode.LanguageModelChat): boolean => !!dataPartClass() && capabilitiesOf(model).supportsImageToText === true;

/** Models that say nothing about tool calling are offered tools; only an explicit "no" withholds them. */
export const acceptsTools = (model: vscode.LanguageModelChat): boolean => capabilitiesOf(model).supportsToolCalling !== false;

function contentPart(part: ModelContentPart): unknown {
  if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.text);
  const DataPart = dataPartClass();
  return DataPart ? new DataPart(part.data, part.mimeType) : new vscode.LanguageModelTextPart(`[Image (${part.mimeType}) omitted]`);
}

function toVscodePart(part: ModelPart): unknown {
  switch (part.kind) {
    case 'toolCall':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'toolResult':
      return new vscode.LanguageModelToolResultPart(part.callId, part.content.map(contentPart));
    default:
      return contentPart(part);
  }
}

function toVscodeMessages(messages: readonly ModelMessage[]): vscode.LanguageModelChatMessage[] {
  return messages.map(
    (m) =>
      new vscode.LanguageModelChatMessage(
        m.role === 'assistant' ? vscode.LanguageModelChatMessageRole.Assistant : vscode.LanguageModelChatMessageRole.User,
        // The typed union predates data parts; the runtime accepts them.
        m.parts.map(toVscodePart) as vscode.LanguageModelChatMessage['content'],
      ),
  );
}

/** A CancellationToken that follows an AbortSignal (the tool loop speaks AbortSignal, VS Code speaks tokens). */
function tokenFor(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

export class LanguageModelAdapter implements ChatModel {
  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly justification: string,
  ) {}

  async *send(messages: readonly ModelMessage[], tools: readonly ModelTool[], signal: AbortSignal): AsyncIterable<ModelEvent> {
    const cancellation = tokenFor(signal);
    try {
      const response = await this.model.sendRequest(
        toVscodeMessages(messages),
        {
          justification: this.justification,
          ...(tools.length && acceptsTools(this.model)
            ? { tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) }
            : {}),
        },
        cancellation.token,
      );
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart) yield { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
      }
    } finally {
      cancellation.dispose();
    }
  }
}
