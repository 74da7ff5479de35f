/**
 * A mentor's "Evaluations" tab: its evaluation (questions with expected answers, passing score, the prompt that
 * rates an answer), runs of it as jobs that wait for the platform's report, each run's report, and two runs side by
 * side. The runs are kept on this computer (the platform lists none), so they show with the tenant offline too.
 */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import type { EvalRun, MentorEvaluation } from '../../../shared/contract';
import { LoadErrorAlert } from '../../components/LoadErrorAlert';
import { SectionLoadError, SectionReach } from '../../components/SectionReach';
import { TrashIcon } from '../../components/icons';
import { formatDateTime } from '../../lib/format';
import { showSaveError } from '../../lib/forms';
import { useCall, useMutationCall } from '../../queries/useCall';
import { useWriteRefusal, WriteButton } from '../../resources/writeGate';
import type { MentorTarget } from '../../train/TrainFlowContext';

interface QuestionValues {
  content: string;
  sampleAnswer: string;
}
interface EvalValues {
  name: string;
  passingScore: number | string;
  evaluationPrompt: string;
  questions: QuestionValues[];
}

const valuesOf = (evaluation: MentorEvaluation | null): EvalValues => ({
  name: evaluation?.name ?? '',
  passingScore: evaluation?.passingScore ?? '',
  evaluationPrompt: evaluation?.evaluationPrompt ?? '',
  questions: evaluation?.questions.length
    ? evaluation.questions.map((q) => ({ content: q.content, sampleAnswer: q.sampleAnswer ?? '' }))
    : [{ content: '', sampleAnswer: '' }],
});

/** A form field for an issue's path (`passingScore`, `questions.1.content`); the rest goes to the form's alert. */
const fieldOf = (path: string) =>
  /^(name|passingScore|evaluationPrompt)$/.test(path) || /^questions\.\d+\.(content|sampleAnswer)$/.test(path)
    ? path
    : undefined;

const scoreColor = (score: number | null | undefined) =>
  score === null || score === undefined ? 'gray' : score >= 80 ? 'teal' : score >= 50 ? 'yellow' : 'red';

const RUN_STATE: Record<EvalRun['state'], { label: string; color: string }> = {
  sending: { label: 'Starting', color: 'blue' },
  waiting: { label: 'Waiting for the report', color: 'blue' },
  ready: { label: 'Report ready', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

export function EvaluationsPanel({ mentor }: { mentor: MentorTarget }) {
  const scope = { profileId: mentor.profileId, mentor: mentor.uniqueId };
  const definition = useCall('mentorEvals.get', scope);
  const runs = useCall('mentorEvals.runs', scope);
  const [shown, setShown] = useState<number | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [comparing, setComparing] = useState<[number, number] | null>(null);
  const list = runs.data?.runs ?? [];
  const shownRun = list.find((run) => run.id === shown) ?? list.find((run) => run.report) ?? null;
  // A tenant the engine knows is out of reach: Save and Run wait, and say why.
  const refusal = useWriteRefusal();

  return (
    <SectionReach what="this mentor's evaluation">
      <Stack gap="lg" data-testid="mentor-evaluations">
        <Paper withBorder radius="md" p="lg">
          {definition.isPending && <Skeleton height={160} />}
          {definition.isError && (
            <SectionLoadError
              section="evaluation"
              title="The evaluation could not be read from the platform"
              error={definition.error}
              onRetry={() => void definition.refetch()}
            />
          )}
          {definition.data && (
            <EvaluationForm
              key={`${mentor.profileId}:${mentor.uniqueId}:${definition.data.evaluation?.id ?? 'new'}`}
              mentor={mentor}
              evaluation={definition.data.evaluation}
              runs={list}
              refusal={refusal}
            />
          )}
        </Paper>

        <Stack gap="sm">
          <Group justify="space-between" align="flex-end">
            <Stack gap={2}>
              <Title order={2} size="h4">
                Runs
              </Title>
              <Text size="sm" c="dimmed">
                Runs started from this app, newest first. Tick two to compare them.
              </Text>
            </Stack>
            <Button
              variant="default"
              size="sm"
              disabled={chosen.length !== 2}
              onClick={() => {
                const [a, b] = [...chosen].sort((x, y) => x - y) as [number, number];
                setComparing([a, b]);
              }}
            >
              Compare the two runs
            </Button>
          </Group>
          {runs.isError && (
            <SectionLoadError
              section="evaluation-runs"
              title="The runs could not be read"
              error={runs.error}
              onRetry={() => void runs.refetch()}
            />
          )}
          {runs.data && !list.length && (
            <Text size="sm" c="dimmed" data-testid="eval-no-runs">
              No runs yet: save the evaluation, then run it.
            </Text>
          )}
          {list.length > 0 && (
            <ScrollArea.Autosize mah={260} type="auto">
              <Table highlightOnHover verticalSpacing="xs" data-testid="eval-runs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40} />
                    <Table.Th>Run</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th ta="right">Score</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((run) => (
                    <Table.Tr
                      key={run.id}
                      data-testid="eval-run"
                      data-run={run.id}
                      bg={!comparing && run.id === shownRun?.id ? 'var(--mantine-color-default-hover)' : undefined}
                    >
                      <Table.Td>
                        <Checkbox
                          aria-label={`Choose run ${run.id} to compare`}
                          disabled={!run.report || (chosen.length >= 2 && !chosen.includes(run.id))}
                          checked={chosen.includes(run.id)}
                          onChange={(event) => {
                            const on = event.currentTarget.checked;
                            setChosen((was) => (on ? [...was, run.id] : was.filter((id) => id !== run.id)));
                          }}
                        />
                      </Table.Td>
                      <Table.Td>#{run.id}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(run.startedAt)}</Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          {(run.state === 'sending' || run.state === 'waiting') && <Loader size={12} />}
                          <Badge variant="light" radius="sm" color={RUN_STATE[run.state].color}>
                            {RUN_STATE[run.state].label}
                          </Badge>
                        </Group>
                        {run.error && (
                          <Text size="xs" c="red" mt={4} maw={420}>
                            {run.error}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        {run.report ? (
                          <>
                            <Text size="sm" fw={700} c={run.report.isPassed ? 'teal' : 'red'}>
                              {run.report.overallScore}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {run.report.isPassed ? 'passed' : 'not passed'}
                            </Text>
                          </>
                        ) : (
                          '—'
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          disabled={!run.report}
                          onClick={() => {
                            setShown(run.id);
                            setComparing(null);
                          }}
                        >
                          Report
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Stack>

        {comparing ? (
          <CompareRuns mentor={mentor} before={comparing[0]} after={comparing[1]} onClose={() => setComparing(null)} />
        ) : (
          shownRun?.report && <ReportView run={shownRun} />
        )}
      </Stack>
    </SectionReach>
  );
}

function EvaluationForm({
  mentor,
  evaluation,
  runs,
  refusal,
}: {
  mentor: MentorTarget;
  evaluation: MentorEvaluation | null;
  /** The runs listed below: the note on a run just started goes once its report is there. */
  runs: readonly EvalRun[];
  /** Why saving and running are off now (the tenant cannot be reached), or null: editing goes on. */
  refusal: string | null;
}) {
  const form = useForm<EvalValues>({ initialValues: valuesOf(evaluation) });
  const define = useMutationCall('mentorEvals.define');
  const run = useMutationCall('mentorEvals.run');
  const [alert, setAlert] = useState<string | null>(null);
  const [startedRun, setStartedRun] = useState<number | null>(null);
  const started =
    startedRun !== null && !runs.some((run) => run.id === startedRun && (run.report || run.state === 'failed'))
      ? `Run #${startedRun} started: its report shows below once the platform has written it.`
      : null;
  useEffect(() => form.resetDirty(valuesOf(evaluation)), [evaluation]); // eslint-disable-line react-hooks/exhaustive-deps
  const score = form.values.passingScore;
  const outsideScale = typeof score === 'number' && (score < 0 || score > 100);

  const save = form.onSubmit(async (values) => {
    // Enter in a field submits too: nothing is sent while the button says why not.
    if (refusal) return;
    setAlert(null);
    try {
      await define.mutateAsync({
        profileId: mentor.profileId,
        mentor: mentor.uniqueId,
        ...(evaluation && { id: evaluation.id }),
        name: values.name,
        ...(values.passingScore !== '' && { passingScore: Number(values.passingScore) }),
        ...(values.evaluationPrompt.trim() && { evaluationPrompt: values.evaluationPrompt }),
        questions: values.questions.map((q) => ({ content: q.content, sampleAnswer: q.sampleAnswer || null })),
      });
    } catch (error) {
      setAlert(showSaveError(form, error, fieldOf));
    }
  });

  const start = async () => {
    if (!evaluation || refusal) return;
    setAlert(null);
    try {
      const answer = await run.mutateAsync({
        profileId: mentor.profileId,
        mentor: mentor.uniqueId,
        evaluationId: evaluation.id,
      });
      setStartedRun(answer.run.id);
    } catch (error) {
      setAlert(showSaveError(form, error, () => undefined));
    }
  };

  return (
    <form onSubmit={save} data-testid="eval-form">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={2} size="h4">
              Evaluation
            </Title>
            <Text size="sm" c="dimmed">
              {evaluation
                ? `${evaluation.questions.length} ${evaluation.questions.length === 1 ? 'question' : 'questions'}, each answered by the mentor and scored against the answer you expect.`
                : 'This mentor has no evaluation yet: write the questions and the answers you expect.'}
            </Text>
          </Stack>
          <Group gap="xs">
            {/* Off with the reason even when unchanged: a disabled button would not show the tooltip. */}
            <WriteButton
              type="submit"
              refusal={refusal}
              loading={define.isPending}
              disabled={!refusal && !!evaluation && !form.isDirty()}
            >
              Save evaluation
            </WriteButton>
            <WriteButton
              variant="light"
              refusal={refusal}
              onClick={() => void start()}
              loading={run.isPending}
              disabled={!refusal && (!evaluation || form.isDirty())}
              title={!refusal && form.isDirty() ? 'Save the changes first' : undefined}
            >
              Run evaluation
            </WriteButton>
          </Group>
        </Group>
        {alert && (
          <Alert color="red" variant="light" title="Not saved" data-testid="eval-alert">
            {alert}
          </Alert>
        )}
        {started && (
          <Alert color="blue" variant="light" withCloseButton onClose={() => setStartedRun(null)}>
            {started}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput label="Name" {...form.getInputProps('name')} />
          <NumberInput
            label="Passing score"
            description={evaluation ? undefined : 'The platform’s default is 60.'}
            allowDecimal={false}
            {...form.getInputProps('passingScore')}
            {...(outsideScale && !form.errors.passingScore
              ? { error: 'Scores run from 0 to 100: this one can never, or always, be reached.' }
              : {})}
          />
        </Group>
        <Stack gap="xs">
          <Text fw={500} size="sm">
            Questions
          </Text>
          {form.values.questions.map((_, index) => (
            <Group key={index} align="flex-start" wrap="nowrap" data-testid="eval-question">
              <Text size="sm" c="dimmed" w={22} pt={8}>
                {index + 1}.
              </Text>
              <Textarea
                style={{ flex: 1 }}
                autosize
                minRows={1}
                placeholder="The question"
                aria-label={`Question ${index + 1}`}
                {...form.getInputProps(`questions.${index}.content`)}
              />
              <Textarea
                style={{ flex: 1 }}
                autosize
                minRows={1}
                placeholder="The answer you expect (optional)"
                aria-label={`Expected answer ${index + 1}`}
                {...form.getInputProps(`questions.${index}.sampleAnswer`)}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                mt={4}
                aria-label={`Remove question ${index + 1}`}
                disabled={form.values.questions.length === 1}
                onClick={() => form.removeListItem('questions', index)}
              >
                <TrashIcon size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={() => form.insertListItem('questions', { content: '', sampleAnswer: '' })}
            >
              Add question
            </Button>
          </Group>
        </Stack>
        <Textarea
          label="Evaluation prompt"
          description="How an answer is rated; {{question}}, {{sample_answer}} and {{mentor_answer}} are filled in. Left empty, the platform's own."
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('evaluationPrompt')}
        />
      </Stack>
    </form>
  );
}

function ReportView({ run }: { run: EvalRun }) {
  const report = run.report!;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="eval-report">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4">
            Report of run #{run.id}
          </Title>
          <Text size="sm" c="dimmed">
            Written {formatDateTime(report.generatedAt)} · {report.mentorEval}
          </Text>
        </Group>
        <Group gap="sm">
          <Text size="xl" fw={700} data-testid="eval-overall">
            {report.overallScore}
          </Text>
          <Badge color={report.isPassed ? 'teal' : 'red'} variant="light" radius="sm">
            {report.isPassed ? 'Passed' : 'Not passed'}
          </Badge>
        </Group>
        <Table verticalSpacing="xs" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>#</Table.Th>
              <Table.Th w="30%">Question</Table.Th>
              <Table.Th>The mentor’s answer</Table.Th>
              <Table.Th w={80} ta="right">
                Score
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.ratings.map((rating, index) => (
              <Table.Tr key={rating.id ?? index} data-testid="eval-rating">
                <Table.Td>{index + 1}</Table.Td>
                <Table.Td>
                  <Text size="sm">{rating.question || '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={4} title={rating.answer}>
                    {rating.answer}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Badge color={scoreColor(rating.score)} variant="light" radius="sm">
                    {rating.score ?? '—'}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function CompareRuns({
  mentor,
  before,
  after,
  onClose,
}: {
  mentor: MentorTarget;
  before: number;
  after: number;
  onClose(): void;
}) {
  const compared = useCall('mentorEvals.compare', {
    profileId: mentor.profileId,
    mentor: mentor.uniqueId,
    before,
    after,
  });
  return (
    <Paper withBorder radius="md" p="lg" data-testid="eval-compare">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Run #{before} → run #{after}
          </Title>
          <Button size="compact-sm" variant="subtle" onClick={onClose}>
            Close
          </Button>
        </Group>
        {compared.isError && <LoadErrorAlert title="The runs could not be compared" error={compared.error} />}
        {compared.data && (
          <>
            <Text size="sm">
              Overall {compared.data.before.report!.overallScore} → {compared.data.after.report!.overallScore}
            </Text>
            <Table verticalSpacing="xs" layout="fixed">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="22%">Question</Table.Th>
                  <Table.Th>Before (run #{before})</Table.Th>
                  <Table.Th>After (run #{after})</Table.Th>
                  <Table.Th w={90} ta="right">
                    Change
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {compared.data.rows.map((row, index) => {
                  const changed = row.change !== null && row.change !== 0;
                  return (
                    <Table.Tr
                      key={index}
                      data-testid="eval-compare-row"
                      data-changed={changed || row.answerChanged ? 'true' : 'false'}
                    >
                      <Table.Td
                        style={
                          changed
                            ? { boxShadow: `inset 4px 0 0 var(--mantine-color-${row.change! > 0 ? 'teal' : 'red'}-6)` }
                            : undefined
                        }
                      >
                        <Text size="sm">{row.question || '—'}</Text>
                      </Table.Td>
                      {[row.before, row.after].map((side, i) => (
                        <Table.Td key={i}>
                          {side ? (
                            <Stack gap={4}>
                              <Badge color={scoreColor(side.score)} variant="light" radius="sm">
                                {side.score ?? '—'}
                              </Badge>
                              <Text
                                size="xs"
                                lineClamp={3}
                                title={side.answer}
                                fw={row.answerChanged && i === 1 ? 600 : undefined}
                              >
                                {side.answer}
                              </Text>
                            </Stack>
                          ) : (
                            <Text size="xs" c="dimmed">
                              Not asked
                            </Text>
                          )}
                        </Table.Td>
                      ))}
                      <Table.Td ta="right">
                        <Text size="sm" fw={700} c={!changed ? 'dimmed' : row.change! > 0 ? 'teal' : 'red'}>
                          {row.change === null ? '—' : row.change > 0 ? `+${row.change}` : String(row.change)}
                        </Text>
                        {row.answerChanged && (
                          <Text size="xs" c="dimmed">
                            answer changed
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </>
        )}
      </Stack>
    </Paper>
  );
}
