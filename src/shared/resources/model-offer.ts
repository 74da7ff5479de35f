/**
 * What `mentor-llms/` offers a tenant's mentors, and whether a mentor's model is still among it. The spec leaves
 * `chat_models` and `disabled_models` untyped: a list of names, of objects naming one, or an object keyed by name.
 */
type Row = Record<string, unknown>;

function modelNames(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (typeof item === 'string') return [item];
      if (item && typeof item === 'object') {
        const name = (item as Row).name ?? (item as Row).model ?? (item as Row).id;
        return typeof name === 'string' ? [name] : [];
      }
      return [];
    });
  }
  if (value && typeof value === 'object') return Object.keys(value);
  return [];
}

/** Provider → the models it offers now (disabled ones left out). */
export function offeredModels(records: readonly Row[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const record of records) {
    if (typeof record.name !== 'string') continue;
    const disabled = new Set(modelNames(record.disabled_models));
    out.set(
      record.name,
      modelNames(record.chat_models).filter((model) => !disabled.has(model)),
    );
  }
  return out;
}

export type ModelOffer = { status: 'offered' } | { status: 'unknown-provider' | 'not-offered'; message: string };

/** Whether the platform still offers `model` of `provider` (nothing to say while either is empty). */
export function modelOffer(offered: Map<string, string[]>, provider: string, model: string): ModelOffer {
  if (!provider || !model || offered.size === 0) return { status: 'offered' };
  const models = offered.get(provider);
  if (!models) {
    return {
      status: 'unknown-provider',
      message: `The platform no longer offers the provider “${provider}” to this tenant's mentors (Available LLMs). Choose one it offers.`,
    };
  }
  if (!models.includes(model)) {
    return {
      status: 'not-offered',
      message: `The platform no longer offers “${model}” from ${provider} (Available LLMs). Its models now: ${models.join(', ') || 'none'}.`,
    };
  }
  return { status: 'offered' };
}
