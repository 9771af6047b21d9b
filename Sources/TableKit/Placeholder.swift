// Placeholder until TableKit lands.
