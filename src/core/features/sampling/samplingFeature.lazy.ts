// `sampling/createMessage`: a server asks for an LLM completion. Nothing reaches a model without the user's consent,
// the user sees (and may edit) what is sent and what comes back, and a server can neither flood the user with
// dialogs (rate limit) nor run up cost (maxTokens cap). Errors go back to the server as JSON-RPC errors.
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/serverDefinition';
import type { ActiveToolCalls } from '../tools/activeToolCalls';
import { askedDuring } from '../tools/askedDuring';
import type { ClientFeature, SessionContext } from '../../host/clientFeature';
import type { PermissionStore } from '../../host/permissionStore';
import type { ServerLog } from '../../common/log';
import { consentSubject } from '../consentSubject';
import type { InteractionQueue } from '../../host/interactionQueue';
import {
  base64Of,
  type LanguageModel,
  type LanguageModelCatalog,
  type LanguageModelInfo,
  type ModelMessage,
  type ModelResponsePart,
} from '../languageModel';
import { RATE_LIMITED, RateLimiter } from '../../common/rateLimiter';
import { selectModel } from './modelSelection.lazy';
import { describeResult, describeTools, toModelMessage, toolsOfRequest, toolUseResult } from './samplingTools.lazy';
import type { ContextScope, SamplingSettings } from './samplingSettings';
import type { SamplingDialogs } from './samplingQuestions';

export type { ContextScope, SamplingSettings } from './samplingSettings';

export interface SamplingFeatureDeps {
  settings(definition: ServerDefinition): SamplingSettings;
  models: LanguageModelCatalog;
  dialogs: SamplingDialogs;
  permissions: PermissionStore;
  activeToolCalls: ActiveToolCalls;
  queue: InteractionQueue;
  /** Tells the user about a failure the server alone would hide (e.g. no model available). */
  notifyUser(message: string, serverId: string): void;
  /** What `includeContext` adds: a description of this server, or of every running server. */
  describeContext(serverId: string, scope: Exclude<ContextScope, 'none'>): string;
  rateLimiter?: RateLimiter;
}

/** The error code the spec's examples use when the user refuses a sampling request. */
export const USER_REJECTED = -1;

const CONTEXT_ORDER: ContextScope[] = ['none', 'thisServer', 'allServers'];

export class SamplingFeature implements ClientFeature {
  private readonly limiter: RateLimiter;

  constructor(private readonly deps: SamplingFeatureDeps) {
    this.limiter = deps.rateLimiter ?? new RateLimiter();
  }

  capabilities(definition: ServerDefinition): ClientCapabilities {
    const s = this.deps.settings(definition);
    if (!s.enabled) return {};
    return { sampling: { ...(s.allowedContext === 'none' ? {} : { context: {} }), ...(s.allowTools ? { tools: {} } : {}) } };
  }

  install(session: SessionContext): void {
    if (!this.deps.settings(session.definition).enabled) return;
    session.handlers.setRequestHandler('sampling/createMessage', (request, ctx) =>
      this.createMessage(session.definition, request.params, session.log, ctx.mcpReq.signal),
    );
    session.answerAsTask?.('sampling/createMessage', (params, signal) =>
      this.createMessage(session.definition, params as CreateMessageRequestParams, session.log, signal) as Promise<CreateMessageResult & Record<string, unknown>>,
    );
  }

  /** Handles one request from start to finish; throws a ProtocolError the SDK sends back to the server. */
  async createMessage(
    definition: ServerDefinition,
    params: CreateMessageRequestParams,
    log: ServerLog,
    signal: AbortSignal = new AbortController().signal,
  ): Promise<CreateMessageResult> {
    const settings = this.deps.settings(definition);
    const refuse = (code: number, message: string): never => {
      log.warn(`Sampling request refused: ${message}`);
      throw new ProtocolError(code, message);
    };
    const slot = this.limiter.tryAcquire(definition.id, settings.rateLimitPerMinute);
    if (!slot.ok)
      refuse(
        RATE_LIMITED,
        `Rate limit: at most ${settings.rateLimitPerMinute} sampling requests per minute (setting mcpHost.sampling.rateLimit); retry in ${Math.ceil(slot.retryAfterMs / 1000)} s.`,
      );
    if (params.maxTokens > settings.maxTokens)
      refuse(ProtocolErrorCode.InvalidParams, `maxTokens ${params.maxTokens} exceeds the user's limit of ${settings.maxTokens} (setting mcpHost.sampling.maxTokens).`);
    if ((params.tools?.length || params.toolChoice) && !settings.allowTools)
      refuse(ProtocolErrorCode.InvalidParams, 'Tools in sampling requests are turned off (setting mcpHost.sampling.allowTools).');
    const offered = toolsOfRequest(params, refuse);
    const messages = params.messages.map((m) => toModelMessage(m, refuse));

    return this.deps.queue.run(async () => {
      if (signal.aborted) refuse(ProtocolErrorCode.InternalError, 'The request was cancelled.');
      const available = await this.deps.models.list();
      const choice = selectModel(available, params.modelPreferences, settings.pinnedModels);
      if (!choice.model) {
        const message = `MCP server "${definition.name}" asked for a language model, but ${choice.reason}.`;
        this.deps.notifyUser(message, definition.id);
        refuse(ProtocolErrorCode.InternalError, `No model available: ${choice.reason}.`);
      }
      const model = choice.model!;
      if (offered && !model.capabilities.acceptsTools) refuse(ProtocolErrorCode.InternalError, `The model ${model.name} does not take tools.`);
      const requested = params.includeContext ?? 'none';
      const context = CONTEXT_ORDER[Math.min(CONTEXT_ORDER.indexOf(requested), CONTEXT_ORDER.indexOf(settings.allowedContext))];
      const subject = consentSubject(definition.scope, definition.name, definition.raw);
      const remembered = this.deps.permissions.get('sampling', subject)?.decision;
      // Refused for good: the server gets its error without the user being asked again (Manage Permissions undoes it).
      if (remembered === 'deny') refuse(USER_REJECTED, 'The user denied sampling for this server.');
      if (remembered !== 'allow') {
        const call = this.deps.activeToolCalls.of(definition.id).at(-1);
        const answer = await this.deps.dialogs.confirmSampling({
          serverName: definition.name,
          modelName: model.name,
          detail: describeRequest(params, model, choice.reason, requested, context),
          chatContext: call ? askedDuring(call) : undefined,
        });
        if (answer === 'always' || answer === 'never') {
          await this.deps.permissions.set({
            kind: 'sampling',
            key: subject,
            label: `Use your language model, asked by server "${definition.name}" (${definition.scope.label})`,
            decision: answer === 'always' ? 'allow' : 'deny',
            scope: 'global',
          });
        }
        if (answer !== 'once' && answer !== 'always' && answer !== 'edit') {
          refuse(USER_REJECTED, 'The user denied the sampling request.');
        }
        log.info(`You let it use your language model (${answer === 'always' ? 'always' : answer === 'edit' ? 'once, after editing the request' : 'once'})`);
        // One question per request: the text is edited only when the user chose to (the dialog showed all of it).
        // Cancelled while the consent dialog was open (it cannot be closed): no further dialog, no model.
        if (signal.aborted) refuse(ProtocolErrorCode.InternalError, 'The request was cancelled.');
        if (answer === 'edit') await this.reviewPrompt(definition, model, messages, refuse);
      }
      if (signal.aborted) refuse(ProtocolErrorCode.InternalError, 'The request was cancelled.');
      const extra = context === 'none' ? '' : this.deps.describeContext(definition.id, context);
      const systemPrompt = [params.systemPrompt, extra && `Context from MCP servers:\n${extra}`].filter(Boolean).join('\n\n') || undefined;
      log.info(`Asking ${model.name} (${model.vendor}/${model.id}: ${choice.reason}) for it, at most ${params.maxTokens} tokens`);
      let answering: LanguageModel;
      const reply: ModelResponsePart[] = [];
      try {
        answering = await this.deps.models.get(model);
        const request = { systemPrompt, messages, maxTokens: params.maxTokens, temperature: params.temperature, stopSequences: params.stopSequences, ...offered };
        for await (const part of answering.send(request, signal)) reply.push(part);
      } catch (e) {
        return refuse(ProtocolErrorCode.InternalError, `The model ${model.name} failed: ${(e as Error).message}`);
      }
      const result = (offered && toolUseResult(reply, answering.info.id)) || (await this.toResult(answering, reply, params));
      // The answer goes back unasked unless the user chose to check answers (a second question, theirs to turn on).
      if (!settings.reviewAnswers) {
        log.info(`Sent ${model.name}'s answer to the server`);
        return result;
      }
      return this.reviewResponse(definition, model, result, refuse);
    });
  }

  private async reviewPrompt(
    definition: ServerDefinition,
    model: LanguageModelInfo,
    messages: ModelMessage[],
    refuse: (code: number, message: string) => never,
  ) {
    const last = [...messages].reverse().find((m) => m.role === 'user' && m.parts.some((p) => p.kind === 'text'));
    const part = last?.parts.find((p) => p.kind === 'text');
    if (!part) return;
    const edited = await this.deps.dialogs.inputText({
      title: `Review what "${definition.name}" sends to ${model.name}`,
      prompt: 'Edit the request text if you want, then press Enter to send it. Escape cancels the request.',
      password: false,
      value: part.text,
    });
    if (edited === undefined) refuse(USER_REJECTED, 'The user cancelled the sampling request.');
    // A one-line input box drops line breaks: an unchanged answer keeps the original text exactly.
    if (edited !== part.text.replace(/\r?\n/g, '')) part.text = edited!;
  }

  private async toResult(model: LanguageModel, reply: ModelResponsePart[], params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    const { id } = model.info;
    let text = reply.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    const image = reply.find((p) => p.kind === 'image');
    if (!text && image) return { role: 'assistant', model: id, stopReason: 'endTurn', content: { type: 'image', data: base64Of(image.data), mimeType: image.mimeType } };
    let stopReason: CreateMessageResult['stopReason'] = 'endTurn';
    const stops = (params.stopSequences ?? []).filter(Boolean).map((s) => [s, text.indexOf(s)] as const).filter(([, i]) => i >= 0);
    if (stops.length) {
      text = text.slice(0, Math.min(...stops.map(([, i]) => i)));
      stopReason = 'stopSequence';
    }
    const tokens = await model.countTokens(text).catch(() => 0);
    if (tokens > params.maxTokens) {
      // Models do not all honour a token limit: cut the answer to about maxTokens, as the server asked.
      text = text.slice(0, Math.floor((text.length * params.maxTokens) / tokens));
      stopReason = 'maxTokens';
    }
    return { role: 'assistant', model: id, stopReason, content: { type: 'text', text } };
  }

  private async reviewResponse(
    definition: ServerDefinition,
    model: LanguageModelInfo,
    result: CreateMessageResult,
    refuse: (code: number, message: string) => never,
  ): Promise<CreateMessageResult> {
    const subject = consentSubject(definition.scope, definition.name, definition.raw);
    if (this.deps.permissions.get('sampling-review', subject)?.decision === 'skip') return result;
    const content = result.content as { type: string; text?: string; mimeType?: string };
    const responseText = describeResult(result);
    const answer = await this.deps.dialogs.reviewSamplingResponse({ serverName: definition.name, modelName: model.name, responseText });
    if (answer === 'approve') return result;
    if (answer === 'approve-always') {
      await this.deps.permissions.set({
        kind: 'sampling-review',
        key: subject,
        label: `Send model responses to server "${definition.name}" (${definition.scope.label}) without review`,
        decision: 'skip',
        scope: 'global',
      });
      return result;
    }
    if (answer === 'edit' && content.type === 'text') {
      const edited = await this.deps.dialogs.inputText({
        title: `Edit the response sent to "${definition.name}"`,
        prompt: 'The server receives exactly this text. Escape rejects the response.',
        password: false,
        value: content.text,
      });
      if (edited !== undefined) {
        const text = edited === content.text!.replace(/\r?\n/g, '') ? content.text! : edited;
        return { ...result, content: { type: 'text', text } };
      }
    }
    return refuse(USER_REJECTED, "The user rejected the model's response.");
  }
}

/** Everything the server asks for, as the consent dialog shows it. */
export function describeRequest(
  params: CreateMessageRequestParams,
  model: LanguageModelInfo,
  modelReason: string,
  requestedContext: string,
  grantedContext: ContextScope,
): string {
  const lines = [`Model: ${model.name} (${model.vendor}/${model.id}): ${modelReason}`];
  const settings = [`max tokens ${params.maxTokens}`];
  if (params.temperature !== undefined) settings.push(`temperature ${params.temperature}`);
  if (params.stopSequences?.length) settings.push(`stop at ${params.stopSequences.map((s) => JSON.stringify(s)).join(', ')}`);
  lines.push(`Settings: ${settings.join(', ')}`);
  const prefs = params.modelPreferences;
  if (prefs) {
    const parts: string[] = [];
    const hints = (prefs.hints ?? []).map((h) => h.name).filter(Boolean);
    if (hints.length) parts.push(`hints ${hints.map((h) => `"${h}"`).join(', ')}`);
    for (const key of ['costPriority', 'speedPriority', 'intelligencePriority'] as const)
      if (prefs[key] !== undefined) parts.push(`${key.replace('Priority', '')} ${prefs[key]}`);
    if (parts.length) lines.push(`Model preferences: ${parts.join('; ')}`);
  }
  if (requestedContext !== 'none') {
    const granted = grantedContext === 'none' ? 'none (setting mcpHost.sampling.allowedContext)' : grantedContext;
    lines.push(`Context: the server asks for "${requestedContext}"; included: ${granted}`);
  }
  if (params.systemPrompt) lines.push('', 'System prompt:', params.systemPrompt);
  lines.push('', 'Messages:');
  for (const m of params.messages) {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    for (const b of blocks) {
      if (b.type === 'text') lines.push(`[${m.role}] ${b.text}`);
      else if (b.type === 'image') lines.push(`[${m.role}] (image, ${b.mimeType}, ${Math.round((b.data.length * 3) / 4 / 1024)} KB)`);
      else lines.push(`[${m.role}] (${b.type})`);
    }
  }
  lines.push(...describeTools(params));
  return lines.join('\n');
}
