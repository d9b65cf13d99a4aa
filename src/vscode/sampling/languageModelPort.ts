// Sampling's model port on VS Code's Language Model API: whichever chat models the editor offers (Copilot, or any
// extension's provider).
import * as vscode from 'vscode';
import type { ChatModelInfo } from '../../core/features/sampling/modelSelection';
import type { ModelContent, ModelPort, ModelRequest } from '../../core/features/sampling/samplingFeature';

/** `LanguageModelDataPart` (images to and from models) exists from VS Code 1.104 on; older editors get a text note. */
interface DataPartClass {
  image(data: Uint8Array, mimeType: string): unknown;
  new (...args: never[]): { mimeType: string; data: Uint8Array };
}
const DataPart = (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;

export class LanguageModelPort implements ModelPort {
  async listModels(): Promise<ChatModelInfo[]> {
    const models = await vscode.lm.selectChatModels();
    return models.map((m) => ({ id: m.id, name: m.name, vendor: m.vendor, family: m.family }));
  }

  private async find(model: ChatModelInfo): Promise<vscode.LanguageModelChat> {
    const [found] = await vscode.lm.selectChatModels({ vendor: model.vendor, id: model.id });
    if (!found) throw new Error(`the model ${model.name} is no longer available`);
    return found;
  }

  async complete(request: ModelRequest, signal: AbortSignal): Promise<ModelContent[]> {
    const model = await this.find(request.model);
    // The stable API has no system role: the system prompt goes first, as a user message.
    const messages = request.systemPrompt ? [vscode.LanguageModelChatMessage.User(request.systemPrompt)] : [];
    for (const m of request.messages) {
      if (m.role === 'assistant') {
        const text = m.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join('\n');
        messages.push(vscode.LanguageModelChatMessage.Assistant(text));
      } else {
        messages.push(vscode.LanguageModelChatMessage.User(m.content.map(toPart) as vscode.LanguageModelTextPart[]));
      }
    }
    const cancellation = new vscode.CancellationTokenSource();
    const onAbort = () => cancellation.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      const response = await model.sendRequest(
        messages,
        { justification: 'An MCP server asked for a completion, and you allowed it.' },
        cancellation.token,
      );
      const out: ModelContent[] = [];
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) out.push({ type: 'text', text: part.value });
        else if (DataPart && part instanceof DataPart && part.mimeType.startsWith('image/'))
          out.push({ type: 'image', mimeType: part.mimeType, data: Buffer.from(part.data).toString('base64') });
      }
      return out;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancellation.dispose();
    }
  }

  async countTokens(model: ChatModelInfo, text: string): Promise<number> {
    return (await this.find(model)).countTokens(text);
  }
}

function toPart(c: ModelContent): unknown {
  if (c.type === 'text') return new vscode.LanguageModelTextPart(c.text);
  if (DataPart) return DataPart.image(Buffer.from(c.data, 'base64'), c.mimeType);
  return new vscode.LanguageModelTextPart(`[an image (${c.mimeType}) was left out: this VS Code cannot send images to models]`);
}
