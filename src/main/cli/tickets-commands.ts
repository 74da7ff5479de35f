import {
  TICKET_SORTS,
  TICKET_STATUSES,
  type RichNode,
  type TicketDetail,
  type TicketFilter,
  type TicketMessage,
  type TicketSort,
  type TicketStatus,
  type TicketSummary,
} from '../../shared/contract';
import type { Engine } from '../engine';
import { commandArgs, type Command } from './command';
import { readAll, UsageError } from './io';
import { profileIdOf } from './profile-commands';

export const TICKETS_HELP = `Support tickets (read from a local cache that each command brings up to date first):
  tickets list [--status open|in_progress|closed] [--mentor ID|NAME] [--search TEXT] [--sort ${TICKET_SORTS.join('|')}]
               [--limit N] [--cached]
      --limit 0 lists every ticket; --cached reads the cache without asking the tenant
  tickets show ID        the ticket, its description (as safe text) and its thread
  tickets reply ID (--message TEXT | --stdin)
      Written to the job journal first; if the tenant cannot be reached the reply waits there and is sent by the
      app (or 'mentor-admin jobs resume JOB') when it answers again. Exit 1 unless it was sent.
  tickets close ID       close through close/ (sets resolved_at)`;

const PAGE = 1000;

/** No terminal control sequences from ticket text reach the terminal. */
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');

function ticketId(raw: string | undefined, command: string): number {
  if (!raw || !/^\d{1,15}$/.test(raw)) throw new UsageError(`tickets ${command} needs a ticket ID (a number)`);
  return Number(raw);
}

function line(t: TicketSummary): string {
  const who = t.requester.name || t.requester.username;
  return printable(
    `#${t.id}\t${t.status.padEnd(11)}\t${t.createdAt.slice(0, 16).replace('T', ' ')}\t${who} <${t.requester.email}>\t${t.mentorName ?? t.mentorId}\t${t.subject}`,
  );
}

/** The description as plain text with light structure (the safe tree, never the raw markup). */
export function richToText(nodes: RichNode[]): string {
  let out = '';
  const walk = (list: RichNode[], prefix: string) => {
    for (const node of list) {
      if (node.t === 'text') {
        out += node.v;
        continue;
      }
      switch (node.tag) {
        case 'br':
          out += '\n';
          break;
        case 'hr':
          out += '\n----\n';
          break;
        case 'li':
          out += `\n${prefix}- `;
          walk(node.children, `${prefix}  `);
          break;
        case 'a':
          walk(node.children, prefix);
          if (node.href) out += ` <${node.href}>`;
          break;
        case 'img':
          out += `[image: ${node.alt ?? ''} ${node.src ?? ''}]`;
          break;
        case 'p':
        case 'div':
        case 'pre':
        case 'blockquote':
        case 'h1':
        case 'h2':
        case 'h3':
        case 'h4':
        case 'h5':
        case 'h6':
        case 'ul':
        case 'ol':
        case 'table':
        case 'tr':
          out += '\n';
          walk(node.children, node.tag === 'blockquote' ? `${prefix}> ` : prefix);
          out += '\n';
          break;
        default:
          walk(node.children, prefix);
      }
    }
  };
  walk(nodes, '');
  return printable(out.replace(/\n{3,}/g, '\n\n').trim());
}

function sender(m: TicketMessage, t: TicketDetail): string {
  if (m.senderKind === 'system') return 'system';
  if (m.senderKind === 'requester') return t.requester.name || t.requester.username;
  return m.mine ? 'you (staff)' : `staff #${m.sender}`;
}

export const runTicketsCommand: Command = async (engine, args, out, io, globals) => {
  const [sub, ...rest] = args;
  const profileId = await profileIdOf(engine, globals);
  const tenant = profileId ? { profileId } : {};

  switch (sub) {
    case 'list': {
      const { values, positionals } = commandArgs(rest, {
        status: { type: 'string' },
        mentor: { type: 'string' },
        search: { type: 'string' },
        sort: { type: 'string' },
        limit: { type: 'string' },
        cached: { type: 'boolean' },
      });
      if (positionals.length) throw new UsageError('tickets list takes no positional arguments');
      if (values.status && !(TICKET_STATUSES as readonly string[]).includes(values.status)) {
        throw new UsageError(`--status must be one of ${TICKET_STATUSES.join(', ')}`);
      }
      if (values.sort && !(TICKET_SORTS as readonly string[]).includes(values.sort)) {
        throw new UsageError(`--sort must be one of ${TICKET_SORTS.join(', ')}`);
      }
      if (values.limit !== undefined && !/^\d+$/.test(values.limit)) throw new UsageError('--limit must be a number');
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!values.cached) {
        const sync = await engine.invoke('tickets.sync', { ...tenant, wait: true });
        if (sync.state !== 'idle') {
          if (!sync.asOf) throw new Error(sync.message ?? 'The tickets could not be fetched');
          io.stderr.write(`mentor-admin: ${sync.message ?? 'not synced'} (cache as of ${sync.asOf})\n`);
        }
      }
      const filter: TicketFilter = {};
      if (values.status) filter.statuses = [values.status as TicketStatus];
      if (values.mentor) filter.mentorId = await mentorId(engine, tenant, values.mentor);
      let offset = 0;
      let total = 0;
      for (;;) {
        const batch = limit === 0 ? PAGE : Math.min(PAGE, limit - offset);
        if (batch <= 0) break;
        const page = await engine.invoke('tickets.list', {
          ...tenant,
          view: 'all',
          filter,
          ...(values.sort ? { sort: values.sort as TicketSort } : {}),
          ...(values.search ? { search: values.search } : {}),
          offset,
          limit: batch,
        });
        total = page.total;
        for (const t of page.rows) out.record(t, line(t));
        offset += page.rows.length;
        if (page.rows.length < batch) break;
      }
      out.text(`${offset} of ${total} ticket${total === 1 ? '' : 's'}`);
      return 0;
    }

    case 'show': {
      if (rest.length !== 1) throw new UsageError('tickets show takes exactly one ticket ID');
      const id = ticketId(rest[0], 'show');
      const detail = await engine.invoke('tickets.get', { ...tenant, id, refresh: true });
      const messages: TicketMessage[] = [];
      for (let before = detail.messageTotal; before > 0;) {
        const slice = await engine.invoke('tickets.messages', { ...tenant, id, before, limit: 1000 });
        messages.unshift(...slice.messages);
        before = slice.start;
      }
      const t = detail.ticket;
      if (out.json) {
        out.record({ ticket: { ...t, descriptionDoc: undefined }, messages, offline: detail.offline }, '');
        return 0;
      }
      if (detail.offline) io.stderr.write(`mentor-admin: ${detail.offline}\n`);
      const lines = [
        `#${t.id}  ${t.subject}`,
        `Status:    ${t.status}`,
        `Requester: ${t.requester.name} (${t.requester.username}) <${t.requester.email}>`,
        `Mentor:    ${t.mentorName ?? t.mentorId}`,
        `Created:   ${t.createdAt}`,
        `Updated:   ${t.updatedAt}`,
        `Resolved:  ${t.resolvedAt ?? '—'}`,
        `Session:   ${t.session ?? '—'}`,
        '',
        richToText(t.descriptionDoc),
        ...(t.removed.length ? [`[removed for safety: ${t.removed.join(', ')}]`] : []),
        '',
        `Thread (${messages.length} message${messages.length === 1 ? '' : 's'}):`,
        ...messages.map((m) => `  ${m.timestamp.slice(0, 16).replace('T', ' ')}  ${sender(m, t)}: ${m.message}`),
      ];
      out.text(printable(lines.join('\n')));
      return 0;
    }

    case 'reply': {
      const { values, positionals } = commandArgs(rest, { message: { type: 'string' }, stdin: { type: 'boolean' } });
      if (positionals.length !== 1) throw new UsageError('tickets reply takes exactly one ticket ID');
      const id = ticketId(positionals[0], 'reply');
      if (!!values.message === !!values.stdin) throw new UsageError('tickets reply needs --message TEXT or --stdin');
      const message = values.stdin ? await readAll(io.stdin) : values.message!;
      if (!message.trim()) throw new UsageError('The reply is empty');
      const outcome = await engine.invoke('tickets.reply', { ...tenant, id, message, waitMs: 60_000 });
      const human = {
        sent: `Replied on ticket #${id}.`,
        queued: `Not sent yet: ${outcome.message ?? ''} (job ${outcome.jobId}).`,
        changed: `Not sent: ${outcome.message ?? ''}`,
        failed: `Not sent: ${outcome.message ?? ''}`,
      }[outcome.state];
      if (out.json) out.record({ event: `ticket.reply.${outcome.state}`, id, ...outcome }, human);
      else if (outcome.state === 'sent') out.text(human);
      else out.error(human);
      return outcome.state === 'sent' ? 0 : 1;
    }

    case 'close': {
      if (rest.length !== 1) throw new UsageError('tickets close takes exactly one ticket ID');
      const id = ticketId(rest[0], 'close');
      const { results } = await engine.invoke('tickets.setStatus', { ...tenant, ids: [id], status: 'closed' });
      const result = results[0]!;
      if (!result.ok) {
        out.error(result.error ?? `Ticket #${id} could not be closed`);
        return 1;
      }
      out.record(
        { event: 'ticket.closed', id, resolvedAt: result.ticket?.resolvedAt ?? null },
        `Closed ticket #${id} (resolved ${result.ticket?.resolvedAt ?? ''}).`,
      );
      return 0;
    }

    default:
      throw new UsageError(
        sub ? `Unknown tickets command '${sub}'` : 'tickets needs a command: list, show, reply or close',
      );
  }
};

/** A mentor by unique id or (cached) name, as the views list them. */
async function mentorId(engine: Engine, tenant: { profileId?: string }, ref: string): Promise<string> {
  const { views } = await engine.invoke('tickets.views', tenant);
  const mentors = views.filter((v) => v.kind === 'mentor');
  const found =
    mentors.find((v) => v.id === `mentor:${ref}`) ?? mentors.find((v) => v.label.toLowerCase() === ref.toLowerCase());
  return found ? found.id.slice('mentor:'.length) : ref;
}
