import { useSubRoute } from '../../shell/routes';
import { JobPage } from './JobPage';
import { JobsList } from './JobsList';

/** `#/jobs` lists every job; `#/jobs/<id>` follows one. */
export function JobsScreen() {
  const [id] = useSubRoute();
  return id ? <JobPage key={id} id={id} /> : <JobsList />;
}
