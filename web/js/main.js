// The single-page app's entry point.

import { start } from './router.js';

start();
