// Filling in a resource template: its RFC 6570 variables, parsed and expanded by the SDK's UriTemplate (the value
// suggestions come from ../../../features/resources/templateCompleter).
import { UriTemplate } from '@modelcontextprotocol/client';
import type { ResourceTemplate } from '../../host/serverInfo';

export class ResourceTemplateForm {
  private readonly parsed: UriTemplate;

  constructor(readonly template: Pick<ResourceTemplate, 'uriTemplate'>) {
    this.parsed = new UriTemplate(template.uriTemplate);
  }

  /** The variables in the order they appear, each once. */
  get variables(): string[] {
    return [...new Set(this.parsed.variableNames)];
  }

  /** The resource URI for these values, encoded as each expression's operator says. */
  expand(values: Readonly<Record<string, string>>): string {
    return this.parsed.expand(values);
  }
}
