/** `mentor-admin mentors share|fork|templates|create`: a mentor's sharable link, and new mentors from others. */
import type { MentorSharing, SharableLink } from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Globals } from './command';
import { UsageError, type Output } from './io';
import { profileIdOf } from './profile-commands';

export const MENTOR_SHARING_HELP = `Sharing and new mentors from others:
  mentors share MENTOR [--show | --revoke --yes]
      make (or keep) the mentor's sharable link and print its token; --show only prints the link and what the
      platform's public check says of it; --revoke makes the token stop working
  mentors fork MENTOR --name NEW [--with-documents]
      a new mentor on this tenant made from MENTOR (its settings; its documents too with --with-documents)
  mentors templates                     the tenant's template mentors
  mentors create --name NAME --description TEXT [--template SLUG]
      a new mentor through the create-mentor wizard (name up to 100 characters, description 20 to 1000),
      made from a template when --template names one`;

const linkWords = (link: SharableLink) =>
  `${link.enabled ? 'on' : 'off'}, token ${link.token}${link.createdAt ? ` (made ${link.createdAt})` : ''}`;

function publicWords(check: MentorSharing['publicCheck']): string {
  if (check.error) return `could not be asked (${check.error})`;
  if (check.enabled === null) return 'knows no link';
  return check.enabled ? 'the link works' : 'the link is off';
}

type Verb = (engine: Engine, args: string[], out: Output, globals: Globals) => Promise<number>;

const tenantOf = async (engine: Engine, globals: Globals) => {
  const profileId = await profileIdOf(engine, globals);
  return profileId ? { profileId } : {};
};

export const MENTOR_SHARING_VERBS: Record<string, Verb> = {
  async share(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, {
      show: { type: 'boolean' },
      revoke: { type: 'boolean' },
      yes: { type: 'boolean' },
    });
    const [mentor] = positionals;
    if (!mentor || positionals.length > 1) throw new UsageError('mentors share needs MENTOR');
    if (values.show && values.revoke) throw new UsageError('mentors share takes --show or --revoke, not both');
    const input = { ...(await tenantOf(engine, globals)), mentor };
    if (values.revoke) {
      if (!values.yes) throw new UsageError('mentors share --revoke needs --yes: whoever has the link loses it');
      await engine.invoke('mentors.unshare', input);
      out.record({ mentor, revoked: true }, `Revoked the sharable link of '${mentor}': its token no longer works`);
      return 0;
    }
    if (values.show) {
      const sharing = await engine.invoke('mentors.sharing', input);
      out.record(
        { mentor, ...sharing },
        `Sharable link of '${mentor}': ${sharing.link ? linkWords(sharing.link) : 'none'}\n` +
          `Public check: ${publicWords(sharing.publicCheck)}`,
      );
      return 0;
    }
    const link = await engine.invoke('mentors.share', input);
    out.record({ mentor, link }, `Sharable link of '${mentor}': ${linkWords(link)}`);
    return 0;
  },

  async fork(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, {
      name: { type: 'string' },
      'with-documents': { type: 'boolean' },
    });
    const [mentor] = positionals;
    if (!mentor || positionals.length > 1) throw new UsageError('mentors fork needs MENTOR');
    if (values.name === undefined) throw new UsageError('mentors fork needs --name NEW (the new mentor’s name)');
    const forked = await engine.invoke('mentors.fork', {
      ...(await tenantOf(engine, globals)),
      mentor,
      name: values.name,
      cloneDocuments: values['with-documents'] ?? false,
    });
    out.record({ mentor: forked }, `Forked '${mentor}' as '${forked.name}' (${forked.uniqueId})`);
    return 0;
  },

  async templates(engine, args, out, globals) {
    const { positionals } = commandArgs(args, {});
    if (positionals.length) throw new UsageError('mentors templates takes no arguments');
    const { templates } = await engine.invoke('mentors.templates', await tenantOf(engine, globals));
    if (!templates.length) out.text('This tenant offers no template mentors.');
    for (const template of templates) {
      out.record(
        template,
        `${(template.slug ?? '-').padEnd(24)} ${template.name}${template.description ? ` — ${template.description}` : ''}`,
      );
    }
    return 0;
  },

  async create(engine, args, out, globals) {
    const { positionals, values } = commandArgs(args, {
      name: { type: 'string' },
      description: { type: 'string' },
      template: { type: 'string' },
    });
    if (positionals.length) throw new UsageError('mentors create takes --name, --description and --template');
    if (values.name === undefined || values.description === undefined) {
      throw new UsageError('mentors create needs --name NAME --description TEXT');
    }
    const made = await engine.invoke('mentors.createWithWizard', {
      ...(await tenantOf(engine, globals)),
      name: values.name,
      description: values.description,
      ...(values.template ? { template: values.template } : {}),
    });
    out.record(
      { mentor: made },
      `Created '${made.name}' (${made.uniqueId})${values.template ? ` from template '${values.template}'` : ''}`,
    );
    return 0;
  },
};
