// A stand-in: the reader reads the names of frozen autoschedules only.
