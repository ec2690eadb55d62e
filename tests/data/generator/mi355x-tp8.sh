# SGLang configuration generator: MiniMax-M3.1-Flash, AMD MI355X, TP 8
SGLANG_USE_AITER=1 python3 -m sglang.launch_server \
  --model-path MiniMaxAI/MiniMax-M3.1-Flash \
  --tp 8 \
  --quantization mxfp8 --dtype bfloat16 \
  --mem-fraction-static 0.80 \
  --trust-remote-code \
  --reasoning-parser minimax-m3 \
  --host 0.0.0.0 --port 30000
