/**
 * The import wizard's engine side: open → configure → read (worker) → target + checks → fix/drop → start the job.
 * Reading and checking run in the background; `wait` lets the CLI and tests await them. Nothing is sent to the
 * platform but read-only questions until `start`.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { ImportDraft, ImportRow, InviteField, InviteTarget, RowFilter } from '../../../shared/contract';
import { INVITE_FIELD_LABELS } from '../../../shared/contract';
import type { EngineServices } from '../context';
import { conflict, EngineError, invalid } from '../errors';
import { UNFINISHED_STATES } from '../jobs';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';
import { userScope } from '../tenants';
import { describeTarget, listCourses, listPrograms, targetKey } from './api';
import { batchSource } from './batches';
import { checkInvited, checkMembers } from './checks';
import {
  noticesOf,
  optionsOf,
  readKey,
  settingsOf,
  targetOf,
  type ImportRecord,
  type ImportStore,
} from './import-store';
import type { InviteJobParams } from './job';
import type { ImportTasks, TaskHandle } from './worker-runner';
import type { ReadImportResult } from './read-import';
import { presentRow, type ImportRows, type StoredRow } from './import-rows-store';
import { readHead, sniff, type SniffChoices } from './sniff';
import { KEEP_LINES } from './parse';
import { asciiEmail } from './validate';

const EMIT_EVERY_MS = 200;
export const DEFAULT_CHUNK = 100;
export const MAX_CHUNK = 1000;

interface Work {
  controller: AbortController;
  read?: TaskHandle<ReadImportResult>;
  done: Promise<void>;
}

/** What importing uses of the engine. */
export type ImportServices = Pick<
  EngineServices,
  'config' | 'tenant' | 'platform' | 'profiles' | 'journal' | 'runner' | 'emit' | 'log'
>;

export class ImportService {
  readonly rows: ImportRows;
  readonly store: ImportStore;
  private readonly tasks: ImportTasks;
  private readonly work = new Map<string, Work>();
  private readonly lastEmit = new Map<string, number>();

  constructor(
    private readonly ctx: ImportServices,
    stores: { rows: ImportRows; imports: ImportStore; tasks: ImportTasks },
    private readonly options: { chunkSize?: number | undefined; maxChunk?: number | undefined } = {},
  ) {
    this.rows = stores.rows;
    this.store = stores.imports;
    this.tasks = stores.tasks;
  }

  /** Forgets imports untouched for a week (and the files the engine wrote for them). */
  async removeOld(): Promise<void> {
    for (const record of this.store.old()) await this.discard(record.id).catch(() => {});
  }

  draft(id: string): ImportDraft {
    return this.store.present(this.store.get(id));
  }

  async open(input: {
    profileId?: string | undefined;
    path?: string;
    name?: string;
    text?: string;
  }): Promise<ImportDraft> {
    const profileId = this.ctx.tenant(input.profileId);
    const id = randomUUID();
    let path: string;
    let name: string;
    let owned = false;
    if (input.path !== undefined) {
      path = resolve(input.path);
      name = basename(path);
    } else {
      const dir = join(this.ctx.config.dataDir, 'imports');
      // Inside the data folder: owner-only, like the rest of it (pasted rows are names and e-mail addresses).
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      path = join(dir, `${id}.csv`);
      name = input.name ?? 'pasted.csv';
      await writeFile(path, input.text ?? '', { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
      owned = true;
    }
    try {
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
        throw new EngineError(
          'validation',
          error.code === 'ENOENT' ? `There is no file at ${path}` : `The file cannot be read: ${error.message}`,
        );
      });
      if (!info.isFile()) throw new EngineError('validation', `${path} is a folder, not a CSV file`);
      if (info.size === 0) throw new EngineError('validation', 'The file is empty: there is nothing to import.');
      const head = await readHead(path, info.size);
      const settings = sniff(head, {}, this.store.memory(profileId));
      this.store.create({ id, profileId, name, path, owned, size: info.size, settings });
      return this.draft(id);
    } catch (error) {
      if (owned) await rm(path, { force: true });
      throw error;
    }
  }

  async configure(
    id: string,
    change: Omit<SniffChoices, 'headerRow'> & { headerRow?: number | null | undefined },
  ): Promise<ImportDraft> {
    const record = this.editable(id);
    const current = settingsOf(record);
    const choices: SniffChoices = {
      encoding: change.encoding ?? current.encoding,
      delimiter: change.delimiter ?? current.delimiter,
      headerRow: change.headerRow !== undefined ? change.headerRow : current.headerRow,
    };
    const reshaped =
      choices.encoding !== current.encoding ||
      choices.delimiter !== current.delimiter ||
      choices.headerRow !== current.headerRow;
    const mapping = change.mapping ?? (reshaped ? undefined : current.mapping);
    if (mapping) {
      checkMapping(mapping);
      choices.mapping = mapping;
    }
    const head = await readHead(record.path, record.size).catch((error: Error) => {
      throw new EngineError('validation', `The file can no longer be read: ${error.message}`);
    });
    const settings = sniff(head, choices, this.store.memory(record.profile_id));
    const stale = readKey(settings) !== record.parsed_with;
    if (stale) this.stop(id);
    this.store.update(id, {
      settings,
      ...(stale && record.state !== 'sniffed' ? { state: 'sniffed' as const, phase: '', error: null } : {}),
    });
    this.emit(id, true);
    return this.draft(id);
  }

  /** Reads every row (unless the stored rows already match the settings), then checks them if a target is set. */
  async parse(id: string, wait = false): Promise<ImportDraft> {
    const record = this.editable(id);
    const settings = settingsOf(record);
    if (!settings.mapping.includes('email')) {
      throw invalid('mapping', 'Choose the column that holds the email addresses first');
    }
    const key = readKey(settings);
    const upToDate = record.parsed_with === key && record.state !== 'failed' && record.state !== 'sniffed';
    const reading = record.state === 'parsing' && this.work.has(id) && this.readingKey.get(id) === key;
    if (!upToDate && !reading) this.startRead(record, key);
    if (wait) await this.work.get(id)?.done;
    return this.draft(id);
  }

  private readonly readingKey = new Map<string, string>();

  private startRead(record: ImportRecord, key: string): void {
    const id = record.id;
    this.stop(id);
    const settings = settingsOf(record);
    this.store.remember(record.profile_id, settings);
    const notices = noticesOf(record);
    this.store.update(id, {
      state: 'parsing',
      phase: 'Reading rows',
      rows_read: 0,
      bytes_read: 0,
      error: null,
      parsed_with: null,
      checked_for: null,
      notices: { read: [], check: notices.check },
    });
    this.readingKey.set(id, key);
    this.emit(id, true);
    const controller = new AbortController();
    const read = this.tasks.run(
      { task: 'read', input: { importId: id, path: record.path, settings } },
      (rows, bytes) => {
        if (controller.signal.aborted) return;
        this.store.update(id, { rows_read: rows, bytes_read: bytes });
        this.emit(id);
      },
    );
    const work: Work = { controller, read, done: Promise.resolve() };
    work.done = read.done.then(
      async (result) => {
        if (controller.signal.aborted) return;
        const read = [...result.notices];
        if (result.stats.rows === 0) {
          read.unshift(
            settings.headerRow === null
              ? 'The file has no rows with anything in them.'
              : 'The file has a header but no rows below it: there is nobody to invite.',
          );
        }
        const latest = this.store.get(id);
        this.store.update(id, {
          state: 'parsed',
          phase: '',
          rows_read: result.stats.rows,
          bytes_read: result.stats.bytes,
          sha256: result.stats.sha256,
          parsed_with: key,
          notices: { read, check: [], owners: result.badOwners },
        });
        this.emit(id, true);
        if (targetOf(latest)) await this.check(id, controller.signal);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        this.ctx.log(`invitations: reading import ${id} failed: ${message}`);
        this.store.update(id, { state: 'failed', phase: '', error: `The file could not be read: ${message}` });
        this.emit(id, true);
      },
    );
    this.work.set(id, work);
  }

  async target(
    id: string,
    input: { target: InviteTarget; redirectTo?: string | null | undefined; active?: boolean | undefined },
    wait = false,
  ): Promise<ImportDraft> {
    const record = this.editable(id);
    await this.checkTargetExists(record.profile_id, input.target);
    const options = optionsOf(record);
    this.store.update(id, {
      target: input.target,
      options: {
        redirectTo: input.redirectTo === undefined ? options.redirectTo : input.redirectTo || null,
        active: input.active ?? options.active,
      },
    });
    const scope = await userScope(this.ctx.profiles, record.profile_id);
    const key = targetKey(input.target, scope.org);
    const fresh = this.store.get(id);
    if (
      ['parsed', 'checking', 'ready'].includes(fresh.state) &&
      (fresh.checked_for !== key || fresh.state === 'parsed')
    ) {
      // The rows are read: only a check of another target can be under way, and it is superseded.
      this.work.get(id)?.controller.abort();
      const controller = new AbortController();
      this.work.set(id, { controller, done: this.check(id, controller.signal) });
    }
    this.emit(id, true);
    if (wait) await this.work.get(id)?.done;
    return this.draft(id);
  }

  private async checkTargetExists(profileId: string, target: InviteTarget): Promise<void> {
    if (target.kind === 'platform') return;
    const client = await this.ctx.platform(profileId);
    const scope = await userScope(this.ctx.profiles, profileId);
    const items =
      target.kind === 'course' ? await listCourses(client, scope.org) : await listPrograms(client, scope.org);
    if (!items.some((item) => item.id === target.id)) {
      throw invalid('target', `There is no ${target.kind} '${target.id}' on this tenant`);
    }
  }

  /** Asks the platform who is already invited (and, for the platform, who is a member). Never fails the import. */
  private async check(id: string, signal: AbortSignal): Promise<void> {
    // Eight questions at a time (and their retries) listen to the one signal.
    setMaxListeners(64, signal);
    const record = this.store.get(id);
    const target = targetOf(record);
    if (!target) return;
    this.store.update(id, { state: 'checking', phase: 'Checking who is already invited' });
    this.emit(id, true);
    const notes: string[] = [];
    let checkedFor: string | null = null;
    try {
      const scope = await userScope(this.ctx.profiles, record.profile_id);
      checkedFor = targetKey(target, scope.org);
      this.rows.clearRemote(id);
      const client = await this.ctx.platform(record.profile_id);
      const addressCount = this.rows.addressCount(id);
      if (addressCount) {
        const addresses = () => this.rows.addresses(id);
        await checkInvited(
          client,
          scope.org,
          target,
          { addresses, addressCount, mark: (emails) => this.rows.setRemote(id, emails, 'invited') },
          signal,
        );
        if (target.kind === 'platform') {
          this.store.update(id, { phase: 'Checking who is already a member' });
          this.emit(id);
          await checkMembers(
            client,
            scope.org,
            { addresses, addressCount, mark: (emails) => this.rows.setRemote(id, emails, 'member') },
            signal,
          );
        } else {
          notes.push(
            `Whether someone is already enrolled in the ${target.kind} is known when sending: the platform answers "already a member" then.`,
          );
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      notes.push(
        `Could not ask the platform who is already invited (${message}). The platform still refuses duplicates when sending.`,
      );
    }
    if (signal.aborted) return;
    this.rows.refreshStatus(id);
    const notices = noticesOf(this.store.get(id));
    this.store.update(id, {
      state: 'ready',
      phase: '',
      checked_for: checkedFor,
      notices: { ...notices, check: notes },
    });
    this.emit(id, true);
  }

  rowsPage(id: string, filter: RowFilter, offset: number, limit: number): { rows: ImportRow[]; total: number } {
    this.store.get(id);
    const page = this.rows.page(id, filter, offset, limit);
    return { rows: page.rows.map(presentRow), total: page.total };
  }

  async editRow(id: string, line: number, field: InviteField, value: string): Promise<ImportRow> {
    const record = this.editable(id);
    if (record.state === 'parsing') throw conflict('The file is still being read: fix rows once it is done');
    const before = field === 'user_group_owner_email' ? this.rows.row(id, line) : undefined;
    const row = this.rows.edit(id, line, field, value);
    if (!row) throw new EngineError('not_found', `There is no row at line ${line}`);
    if (before) this.recountOwner(record, line, before.user_group_owner_email, row.user_group_owner_email);
    if (field === 'email' && row.email_key && row.remote === null && targetOf(record) && record.checked_for) {
      await this.checkOne(record, row).catch(() => {});
    }
    this.emit(id, true);
    return presentRow(this.rows.row(id, line)!);
  }

  /** A fixed group owner changes the file's notice about owners that are not addresses, without a scan. */
  private recountOwner(record: ImportRecord, line: number, before: string, after: string): void {
    const notices = noticesOf(record);
    const bad = (owner: string) => owner !== '' && !asciiEmail(owner);
    if (!notices.owners || bad(before) === bad(after)) return;
    const lines = notices.owners.lines.filter((l) => l !== line);
    if (bad(after) && lines.length < KEEP_LINES) lines.push(line);
    lines.sort((a, b) => a - b);
    const count = notices.owners.count + (bad(after) ? 1 : -1);
    this.store.update(record.id, { notices: { ...notices, owners: { count, lines } } });
  }

  /** A fixed address is asked about on its own, so the summary stays true. */
  private async checkOne(record: ImportRecord, row: StoredRow): Promise<void> {
    const target = targetOf(record)!;
    const client = await this.ctx.platform(record.profile_id);
    const scope = await userScope(this.ctx.profiles, record.profile_id);
    const signal = AbortSignal.timeout(15_000);
    const input = { addresses: () => [[row.email_key!]], addressCount: 1 };
    await checkInvited(
      client,
      scope.org,
      target,
      { ...input, mark: (e) => this.rows.setRemote(record.id, e, 'invited') },
      signal,
    );
    if (target.kind === 'platform') {
      await checkMembers(
        client,
        scope.org,
        { ...input, mark: (e) => this.rows.setRemote(record.id, e, 'member') },
        signal,
      );
    }
    this.rows.refreshStatus(record.id, 'email_key = ?', row.email_key);
  }

  dropRows(id: string, lines: readonly number[], dropped: boolean): number {
    const record = this.editable(id);
    if (record.state === 'parsing') throw conflict('The file is still being read: drop rows once it is done');
    const changed = this.rows.drop(id, lines, dropped);
    this.emit(id, true);
    return changed;
  }

  /** Confirmed by the admin: writes the job (every row an item) and starts it. */
  async start(
    id: string,
    choices: { skipInvalid?: boolean | undefined } = {},
  ): Promise<{ jobId: string; resumed: boolean }> {
    const record = this.store.get(id);
    if (record.state === 'started' && record.job_id) throw conflict('This import was already confirmed: see its job');
    if (record.state !== 'ready') {
      throw conflict(
        record.state === 'parsing' || record.state === 'checking'
          ? 'The rows are still being read and checked: wait until the summary is ready'
          : 'Choose where to invite (and let the rows be read) before confirming',
      );
    }
    const summary = this.rows.summary(id);
    if (summary.rows === 0) throw new EngineError('validation', 'There is nobody to invite: the file has no rows.');
    const target = targetOf(record)!;
    const scope = await userScope(this.ctx.profiles, record.profile_id);
    const resumable = this.unfinishedJob(record, targetKey(target, scope.org));
    if (resumable) {
      if (choices.skipInvalid !== undefined) {
        this.ctx.journal.setParam(resumable, 'skipInvalid', choices.skipInvalid);
      }
      this.store.update(id, { state: 'started', job_id: resumable });
      this.ctx.runner.start(resumable);
      this.emit(id, true);
      return { jobId: resumable, resumed: true };
    }
    const options = optionsOf(record);
    const params: InviteJobParams = {
      importId: id,
      fileName: record.name,
      fileSha256: record.sha256,
      org: scope.org,
      source: batchSource(record.name, new Date()),
      rows: summary.rows,
      target,
      redirectTo: options.redirectTo,
      active: options.active,
      skipInvalid: choices.skipInvalid ?? false,
      chunkSize: this.options.chunkSize ?? DEFAULT_CHUNK,
      maxChunk: this.options.maxChunk ?? MAX_CHUNK,
    };
    const people = summary.willEmail;
    this.store.update(id, { phase: 'Writing the job' });
    this.emit(id, true);
    const { jobId } = await this.tasks.run({
      task: 'createJob',
      input: {
        importId: id,
        profileId: record.profile_id,
        title: `Invite ${people} ${people === 1 ? 'person' : 'people'} to ${describeTarget(target)} (${record.name})`,
        params,
      },
    }).done;
    this.store.update(id, { state: 'started', phase: '', job_id: jobId });
    this.ctx.runner.start(jobId);
    this.emit(id, true);
    return { jobId, resumed: false };
  }

  /** An unfinished invite job of the same tenant for the same file and target: resumed rather than duplicated. */
  private unfinishedJob(record: ImportRecord, scope: string): string | null {
    if (!record.sha256) return null;
    const jobs = this.ctx.journal.find({
      kind: 'invite',
      profileId: record.profile_id,
      states: UNFINISHED_STATES,
    });
    for (const job of jobs) {
      const params = JSON.parse(job.params) as InviteJobParams;
      if (params.fileSha256 === record.sha256 && targetKey(params.target, params.org) === scope) return job.id;
    }
    return null;
  }

  async discard(id: string): Promise<void> {
    const record = this.store.get(id);
    this.stop(id);
    await this.work.get(id)?.done.catch(() => {});
    this.work.delete(id);
    this.store.delete(id);
    if (record.owned) await rm(record.path, { force: true });
  }

  async close(): Promise<void> {
    const pending = [...this.work.values()];
    for (const work of pending) {
      work.controller.abort();
      work.read?.cancel();
    }
    await Promise.all(pending.map((work) => work.done.catch(() => {})));
  }

  /** Stops reading and checking (new settings or target supersede them). */
  private stop(id: string): void {
    const work = this.work.get(id);
    if (!work) return;
    work.controller.abort();
    work.read?.cancel();
    this.work.delete(id);
  }

  private editable(id: string): ImportRecord {
    const record = this.store.get(id);
    if (record.state === 'started')
      throw conflict('This import was confirmed and is being sent: start a new one to change it');
    return record;
  }

  private emit(id: string, force = false): void {
    const now = Date.now();
    if (!force && now - (this.lastEmit.get(id) ?? 0) < EMIT_EVERY_MS) return;
    this.lastEmit.set(id, now);
    const state = this.store.stateOf(id);
    if (state) this.ctx.emit('invitations.importChanged', { id, state });
  }
}

function checkMapping(mapping: readonly (InviteField | null)[]): void {
  const seen = new Set<InviteField>();
  for (const field of mapping) {
    if (!field) continue;
    if (seen.has(field)) {
      throw invalid('mapping', `${INVITE_FIELD_LABELS[field]} is chosen for two columns: pick one`);
    }
    seen.add(field);
  }
}
