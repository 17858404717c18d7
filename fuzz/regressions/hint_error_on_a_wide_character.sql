SELECT /*+ BROADCAS�(dim), SHUFFLE_HASH(fact) */ * FROM fact;
SELECT /*+ A, — */ 1;
SELECT /*+ § */ 1;
