import type { ResourceDeclaration } from './kit';

const USER = '/api/ai-mentor/orgs/{org}/users/{user_id}';

/** How the spec's enumeration values read on screen (lists, details, pickers); the value sent is the spec's. */
const LABELS: Record<string, string> = {
  sse: 'Server-sent events (SSE)',
  websocket: 'WebSocket',
  streamable_http: 'Streamable HTTP',
  none: 'None',
  token: 'Token',
  oauth2: 'OAuth 2',
  realtime: 'Realtime',
  inference: 'Inference',
  openai: 'OpenAI',
  google: 'Google',
  elevenlabs: 'ElevenLabs',
  deepgram: 'Deepgram',
  cartesia: 'Cartesia',
};
const options = (...values: string[]) => values.map((value) => ({ value, label: LABELS[value] ?? value }));

/** The MCP servers the tenant's mentors can call as tools. */
export const mcpServers = {
  kind: 'mcp-servers',
  label: 'MCP servers',
  singular: 'MCP server',
  area: 'mentor-configuration',
  group: 'Tools',
  description: 'Model Context Protocol servers the tenant’s mentors can call as tools.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/mcp-servers/` },
    get: { method: 'get', path: `${USER}/mcp-servers/{id}/`, id: { in: 'path', name: 'id' } },
    create: { method: 'post', path: `${USER}/mcp-servers/` },
    update: { method: 'patch', path: `${USER}/mcp-servers/{id}/`, id: { in: 'path', name: 'id' } },
    delete: { method: 'delete', path: `${USER}/mcp-servers/{id}/`, id: { in: 'path', name: 'id' } },
  },
  envelope: 'drf',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'is_enabled', label: 'Enabled', format: 'boolean' },
    { field: 'is_featured', label: 'Featured', format: 'boolean' },
    { field: 'transport', label: 'Transport' },
    { field: 'auth_type', label: 'Authentication' },
    { field: 'url', label: 'URL' },
    { field: 'updated_at', label: 'Updated', format: 'datetime' },
  ],
  search: ['name', 'url', 'description'],
  filters: [
    { field: 'is_enabled', label: 'Enabled', input: 'switch', param: 'is_enabled' },
    { field: 'is_featured', label: 'Featured', input: 'switch', param: 'is_featured' },
  ],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'Course catalogue' },
    { name: 'url', label: 'URL', input: 'text', placeholder: 'https://mcp.example.edu/sse' },
    { name: 'description', label: 'Description', input: 'text' },
    { name: 'transport', label: 'Transport', input: 'select', options: options('sse', 'websocket', 'streamable_http') },
    { name: 'auth_type', label: 'Authentication', input: 'select', options: options('none', 'token', 'oauth2') },
    {
      name: 'credentials',
      label: 'Credentials',
      input: 'secret',
      description: 'The full Authorization value, such as “Bearer <token>”; it takes priority over the headers below.',
    },
    {
      name: 'extra_headers',
      label: 'Extra headers',
      input: 'json',
      description: 'Headers sent to the server, as a JSON object.',
      placeholder: '{"X-Campus": "north"}',
    },
    { name: 'is_enabled', label: 'Enabled', input: 'switch', initial: true },
    {
      name: 'is_featured',
      label: 'Featured',
      input: 'switch',
      description: 'A featured server is offered to every other tenant of the platform.',
    },
  ],
  // The platform answers the credentials it holds, in every answer: the app keeps them out of its cache and screens.
  writeOnly: ['credentials'],
  confirmDelete: 'Delete the MCP server "{id}"? Mentors that use it lose its tools.',
} as const satisfies ResourceDeclaration;

/** How voice calls with a mentor are handled. The spec offers no delete: a configuration is changed, not removed. */
export const callConfigurations = {
  kind: 'call-configurations',
  label: 'Call configurations',
  singular: 'call configuration',
  plural: 'call configurations',
  area: 'mentor-configuration',
  group: 'Voice',
  description: 'How voice calls with each mentor are handled: realtime or inference, speech providers and voices.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/call-configurations/` },
    get: { method: 'get', path: `${USER}/call-configurations/{id}/`, id: { in: 'path', name: 'id' } },
    create: { method: 'post', path: `${USER}/call-configurations/` },
    update: { method: 'patch', path: `${USER}/call-configurations/{id}/`, id: { in: 'path', name: 'id' } },
  },
  envelope: 'array',
  columns: [
    { field: 'mentor', label: 'Mentor', format: 'mentor' },
    { field: 'mode', label: 'Mode' },
    { field: 'tts_provider', label: 'Text to speech' },
    { field: 'stt_provider', label: 'Speech to text' },
    { field: 'llm_provider', label: 'LLM provider' },
    { field: 'enable_video', label: 'Video', format: 'boolean' },
    { field: 'id', label: 'ID' },
  ],
  search: ['mentor'],
  filters: [
    { field: 'mode', label: 'Mode', input: 'select', options: options('realtime', 'inference'), param: 'mode' },
    { field: 'mentor', label: 'Mentor', input: 'reference', references: 'mentors', param: 'mentor' },
  ],
  fields: [
    {
      name: 'mentor',
      label: 'Mentor',
      input: 'reference',
      references: 'mentors',
      // Each mentor has one call configuration: those that have one are not offered.
      uniqueIn: 'call-configurations',
      createOnly: true,
    },
    { name: 'mode', label: 'Mode', input: 'select', options: options('realtime', 'inference') },
    {
      name: 'tts_provider',
      label: 'Text to speech',
      input: 'select',
      options: options('openai', 'google', 'elevenlabs'),
    },
    {
      name: 'stt_provider',
      label: 'Speech to text',
      input: 'select',
      options: options('openai', 'google', 'deepgram', 'cartesia'),
    },
    { name: 'llm_provider', label: 'LLM provider', input: 'select', options: options('openai', 'google') },
    {
      name: 'use_function_calling_for_rag',
      label: 'Retrieve by function call',
      input: 'switch',
      description: 'Let the agent call retrieval as a tool instead of always retrieving before the LLM answers.',
    },
    // Ids of the platform's voices (`voices/{id}`): picked from the voice catalogue by name.
    { name: 'openai_voice_id', label: 'OpenAI voice', input: 'reference', references: 'voices' },
    { name: 'google_voice_id', label: 'Google voice', input: 'reference', references: 'voices' },
    { name: 'enable_video', label: 'Video', input: 'switch', description: 'Realtime mode only.' },
  ],
} as const satisfies ResourceDeclaration;

/** Parent groups of the mentor categories learners browse by. */
export const categoryGroups = {
  kind: 'category-groups',
  label: 'Category groups',
  singular: 'category group',
  plural: 'category groups',
  area: 'mentor-configuration',
  group: 'Catalogue',
  description: 'Groups of the mentor categories learners browse by, each for one or more audiences.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/category-groups/` },
    get: { method: 'get', path: `${USER}/category-groups/{id}/`, id: { in: 'path', name: 'id' } },
    create: { method: 'post', path: `${USER}/category-groups/` },
    update: { method: 'patch', path: `${USER}/category-groups/{id}/`, id: { in: 'path', name: 'id' } },
    delete: { method: 'delete', path: `${USER}/category-groups/{id}/`, id: { in: 'path', name: 'id' } },
  },
  envelope: 'array',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'description', label: 'Description' },
    { field: 'date_created', label: 'Created', format: 'datetime' },
  ],
  search: ['name', 'description'],
  fields: [
    { name: 'name', label: 'Name', input: 'text', placeholder: 'STEM' },
    { name: 'description', label: 'Description', input: 'text' },
    {
      name: 'audiences',
      label: 'Audiences',
      input: 'reference',
      references: 'mentor-audiences',
      referencesField: 'id',
      multiple: true,
    },
  ],
  confirmDelete: 'Delete the category group "{id}"? Its categories stay, ungrouped.',
} as const satisfies ResourceDeclaration;

/** The voices the platform offers mentors (read-only): a mentor's Google and OpenAI voice settings name one by id. */
export const voices = {
  kind: 'voices',
  label: 'Voices',
  singular: 'voice',
  plural: 'voices',
  area: 'mentor-configuration',
  group: 'Voice',
  description: 'The speech voices the platform offers mentors, by provider.',
  idField: 'id',
  operations: {
    list: { method: 'get', path: `${USER}/voices/` },
    get: { method: 'get', path: `${USER}/voices/{id}/`, id: { in: 'path', name: 'id' } },
  },
  envelope: 'drf',
  columns: [
    { field: 'name', label: 'Name' },
    { field: 'provider', label: 'Provider' },
    { field: 'language', label: 'Language' },
    { field: 'description', label: 'Description' },
    { field: 'id', label: 'ID' },
  ],
  search: ['name', 'language', 'description'],
  filters: [
    {
      field: 'provider',
      label: 'Provider',
      input: 'select',
      options: options('openai', 'google', 'elevenlabs'),
      param: 'provider',
    },
  ],
  fields: [],
} as const satisfies ResourceDeclaration;
