"""The generator of the benchmark's repository of Flink SQL; scripts/gen_repo.py is its
command line. Modules, from the bottom up:

  domains      the business domains: events, dimensions, versioned tables, Java functions
  sql          small pieces of Flink SQL: the CREATE TABLE model and rendering, a file's Style,
               SELECT lists, conditions, aggregates, CREATE FUNCTION
  connectors   connector and format options (Kafka, Upsert Kafka, JDBC, filesystem, datagen)
  tables       the CREATE TABLE statements of a domain: sources, dimensions, versioned tables,
               sinks
  job          a job being written and the pieces the kinds of job share
  jobs_stream  continuous jobs: windows, lookup and temporal joins, deduplication, Top-N,
               fan-out, changelog aggregation
  jobs_more    batch backfills, LIKE copies, Java functions, load tests, catalog reports
  history      migration histories that build and evolve the persistent catalog
  repo         the repository: its shared state, the kinds of job and their weights, generate()
"""
