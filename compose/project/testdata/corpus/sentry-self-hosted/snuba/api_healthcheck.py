# stand-in (ours): a bind source the compose file names
