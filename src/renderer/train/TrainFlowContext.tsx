/**
 * The one "drop → preview → confirm" flow of the app. Anything can start it (the window, a mentor row, the
 * mentor page's drop zone and file choosers); it asks which mentor when the drop did not say, shows the preview,
 * and starts the job only when the admin confirms.
 */
import { notifications } from '@mantine/notifications';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { MentorPicker } from './MentorPicker';
import { PreviewModal } from './PreviewModal';
import type { TrainSource } from './sources';

/** A mentor on a given tenant: enough to preview and to say whom the files are for. */
export interface MentorTarget {
  profileId: string;
  uniqueId: string;
  name: string;
}

interface TrainFlowApi {
  /** Opens the flow; without a mentor it uses the open mentor page, else asks. */
  begin(source: TrainSource, mentor?: MentorTarget | null): void;
  /** Whether a preview (or the mentor question) is open. */
  busy: boolean;
  /** The mentor whose page is open, if any: window drops go there. */
  pageMentor: MentorTarget | null;
  /** Counts the training jobs started from previews: screens put their "add files" areas away after each. */
  started: number;
  setPageMentor(mentor: MentorTarget | null): void;
}

interface Flow {
  id: number;
  source: TrainSource;
  mentor: MentorTarget | null;
}

const TrainFlowContext = createContext<TrainFlowApi | null>(null);

export function TrainFlowProvider({ children }: { children: ReactNode }) {
  const [flow, setFlow] = useState<Flow | null>(null);
  const [pageMentor, setPageMentor] = useState<MentorTarget | null>(null);
  const [started, setStarted] = useState(0);
  const nextId = useRef(1);

  const begin = useCallback(
    (source: TrainSource, mentor?: MentorTarget | null) => {
      if (flow) {
        notifications.show({
          title: 'A preview is already open',
          message: 'Train or cancel it first, then drop the next files.',
          color: 'yellow',
        });
        return;
      }
      setFlow({ id: nextId.current++, source, mentor: mentor ?? pageMentor });
    },
    [flow, pageMentor],
  );

  const api = useMemo<TrainFlowApi>(
    () => ({ begin, busy: flow !== null, pageMentor, setPageMentor, started }),
    [begin, flow, pageMentor, started],
  );

  return (
    <TrainFlowContext.Provider value={api}>
      {children}
      {flow && !flow.mentor && (
        <MentorPicker
          sourceLabel={flow.source.label}
          onChoose={(mentor) => setFlow({ ...flow, mentor })}
          onCancel={() => setFlow(null)}
        />
      )}
      {flow?.mentor && (
        <PreviewModal
          key={flow.id}
          source={flow.source}
          mentor={flow.mentor}
          onStarted={() => setStarted((count) => count + 1)}
          onClose={() => setFlow(null)}
        />
      )}
    </TrainFlowContext.Provider>
  );
}

export function useTrainFlow(): TrainFlowApi {
  const api = useContext(TrainFlowContext);
  if (!api) throw new Error('useTrainFlow must be used inside <TrainFlowProvider>');
  return api;
}

/** A mentor page says it is open, so drops anywhere on the window train this mentor. */
export function useRegisterPageMentor(mentor: MentorTarget | null): void {
  const { setPageMentor } = useTrainFlow();
  const key = mentor ? `${mentor.profileId}\u0000${mentor.uniqueId}\u0000${mentor.name}` : '';
  useEffect(() => {
    setPageMentor(mentor);
    return () => setPageMentor(null);
    // The key captures the fields that matter; the object itself is new on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, setPageMentor]);
}
