//! Every phrase the page shows, English then Spanish. `{name}` marks an
//! argument; both languages use the same names (a test checks).
//!
//! Spanish follows the RAE's guidance for technical text: «comillas
//! latinas» around quoted values, GPU invariable in the plural ("8 GPU"),
//! and the English term where Spanish-speaking practitioners use it
//! (spot, prefill, checkpointing, pipeline).

use super::Phrase;

macro_rules! phrases {
    ($($(#[$meta:meta])* $name:ident = $en:literal, $es:literal;)*) => {
        $($(#[$meta])* pub static $name: Phrase = Phrase { key: stringify!($name), en: $en, es: $es };)*
        /// Every phrase, for the tests.
        pub static ALL: &[&Phrase] = &[$(&$name),*];
    };
}

phrases! {
    // ---- The page ----
    PAGE_TITLE = "whichgpu: which rented GPU for this generative-AI job?", "whichgpu: ¿qué GPU alquilar para este trabajo de IA generativa?";
    TAGLINE = "Which rented GPU should I use for this generative-AI job?", "¿Qué GPU de alquiler me conviene para este trabajo de IA generativa?";
    LANGUAGE = "Language", "Idioma";
    COPY_LINK = "Copy link", "Copiar enlace";
    OPEN_FULL = "Open in whichgpu ↗", "Abrir en whichgpu ↗";
    EMBED_WORKLOAD = "Workload", "Carga de trabajo";
    EMBED = "Embed", "Insertar";
    EMBED_SNIPPET = "Paste into your page (the frame sizes itself):", "Pega esto en tu página (el marco ajusta su altura):";
    LINK_COPIED = "Link copied", "Enlace copiado";
    COPY_BY_HAND = "Copy this link:", "Copia este enlace:";
    LOADING = "Loading offers…", "Cargando ofertas…";
    RETRY = "Retry", "Reintentar";
    CRASH_TITLE = "Something went wrong", "Algo ha fallado";
    CRASH_BODY = "The page hit an error it cannot recover from. Your workload is kept in the link below: reload it, or start again from the defaults.", "La página ha sufrido un error del que no puede recuperarse. Tu carga de trabajo se conserva en el enlace de abajo: vuelve a cargarlo o empieza de nuevo con los valores por defecto.";
    CRASH_RELOAD = "Reload this link", "Recargar este enlace";
    CRASH_RESET = "Reset the form", "Restablecer el formulario";
    MEMORY_ONE_GPU = "Memory on one GPU: {total} ({parts})", "Memoria en una GPU: {total} ({parts})";
    MEMORY_PER_GPU = "Memory per GPU of {count}: {total} ({parts})", "Memoria por GPU (de {count}): {total} ({parts})";
    NAMED_SIZE = "{name} {size}", "{name} {size}";

    // ---- Tasks, options and their labels ----
    TASK_INFER = "LLM inference / serving", "Inferencia / servicio de LLM";
    TASK_FINETUNE = "Fine-tune", "Ajuste fino";
    TASK_PRETRAIN = "Pretrain", "Preentrenamiento";
    TASK_IMAGE = "Image generation", "Generación de imágenes";
    TASK_VIDEO = "Video generation", "Generación de vídeo";
    TASK_AUDIO = "Audio", "Transcripción de audio";
    KIND_LLM = "text LLM", "LLM de texto";
    KIND_IMAGE = "text-to-image model", "modelo de texto a imagen";
    KIND_VIDEO = "text-to-video model", "modelo de texto a vídeo";
    KIND_SPEECH = "speech-to-text model", "modelo de voz a texto";
    METHOD_FULL = "Full fine-tune", "Ajuste fino completo";
    METHOD_LORA = "LoRA", "LoRA";
    METHOD_QLORA = "QLoRA (4-bit base)", "QLoRA (base de 4 bits)";
    OPTIMIZER_ADAMW = "AdamW (states in the weights' precision)", "AdamW (estados en la precisión de los pesos)";
    OPTIMIZER_ADAMW_8BIT = "AdamW 8-bit", "AdamW de 8 bits";
    OPTIMIZER_SGD = "SGD with momentum", "SGD con momento";
    OPTIMIZER_ADAFACTOR = "Adafactor", "Adafactor";
    CE_FULL = "Full logits (HF default)", "Logits completos (por defecto en HF)";
    CE_CHUNKED = "Chunked / fused cross-entropy", "Entropía cruzada por bloques / fusionada";
    OFFLOAD_NONE = "Everything on the GPU", "Todo en la GPU";
    OFFLOAD_TEXT = "Text encoder on the CPU", "Codificador de texto en la CPU";
    OFFLOAD_MODEL = "Each component on the GPU only while it runs", "Cada componente en la GPU solo mientras se ejecuta";
    OBJECTIVE_COST = "Cheapest whole job", "Trabajo completo más barato";
    OBJECTIVE_UNIT = "Cheapest per unit of output", "Más barato por unidad producida";
    OBJECTIVE_FAST = "Fastest", "Más rápido";
    OBJECTIVE_LATENCY = "Lowest latency per user", "Menor latencia por usuario";
    OBJECTIVE_BANDWIDTH = "Most memory bandwidth per dollar", "Más ancho de banda de memoria por dólar";
    SPOT_AUTO = "Where it is safe", "Donde es seguro";
    SPOT_YES = "Always allowed", "Siempre permitido";
    SPOT_NO = "Never (on-demand only)", "Nunca (solo bajo demanda)";
    PRECISION_FP32 = "FP32 (32-bit)", "FP32 (32 bits)";
    PRECISION_BF16 = "BF16 (16-bit)", "BF16 (16 bits)";
    PRECISION_FP16 = "FP16 (16-bit)", "FP16 (16 bits)";
    PRECISION_FP8 = "FP8 (8-bit)", "FP8 (8 bits)";
    PRECISION_INT8 = "INT8 (8-bit)", "INT8 (8 bits)";
    PRECISION_INT4 = "INT4 (4-bit)", "INT4 (4 bits)";
    PRECISION_FP4 = "FP4 / NVFP4 (Blackwell)", "FP4 / NVFP4 (Blackwell)";
    PRECISION_Q8_0 = "GGUF Q8_0", "GGUF Q8_0";
    PRECISION_Q6_K = "GGUF Q6_K", "GGUF Q6_K";
    PRECISION_Q5_K_M = "GGUF Q5_K_M", "GGUF Q5_K_M";
    PRECISION_Q4_K_M = "GGUF Q4_K_M", "GGUF Q4_K_M";
    PRECISION_Q3_K_M = "GGUF Q3_K_M", "GGUF Q3_K_M";
    PRECISION_Q2_K = "GGUF Q2_K", "GGUF Q2_K";
    PRECISION_NF4 = "NF4 (bitsandbytes, QLoRA)", "NF4 (bitsandbytes, QLoRA)";
    PRECISION_AWQ = "AWQ 4-bit", "AWQ de 4 bits";
    PRECISION_GPTQ = "GPTQ 4-bit", "GPTQ de 4 bits";
    KV_BF16 = "BF16 KV cache", "Caché KV en BF16";
    KV_FP16 = "FP16 KV cache", "Caché KV en FP16";
    KV_FP8 = "FP8 KV cache", "Caché KV en FP8";
    KV_INT8 = "INT8 KV cache", "Caché KV en INT8";
    UNIT_MILLION_TOKENS = "1M output tokens", "1 M de tokens de salida";
    UNIT_THOUSAND_IMAGES = "1,000 images", "1000 imágenes";
    UNIT_CLIP = "clip", "clip de vídeo";
    UNIT_AUDIO_HOUR = "audio hour", "hora de audio";
    UNIT_JOB = "job", "trabajo";
    BADGE_HBM = "HBM", "HBM";
    BADGE_FP8 = "FP8", "FP8";
    BADGE_NVLINK = "NVLink", "NVLink";
    BADGE_PCIE_ONLY = "PCIe-only multi-GPU", "varias GPU solo por PCIe";
    BADGE_SPOT_SAFE = "spot-safe", "apta para spot";
    BADGE_PER_HOUR = "per-hour billing", "facturación por horas";
    BADGE_SINGLE_GPU = "single GPU fits", "cabe en una GPU";
    BADGE_BILLING_UNKNOWN = "billing unknown", "facturación desconocida";
    BADGE_PARETO = "best trade-off", "mejor equilibrio";
    BADGE_PARETO_TITLE = "Nothing else is both cheaper and faster", "Ninguna otra es a la vez más barata y más rápida";
    PART_WEIGHTS = "weights", "pesos";
    PART_ADAPTERS = "adapters", "adaptadores";
    PART_KV_CACHE = "KV cache", "caché KV";
    PART_GRADIENTS = "gradients", "gradientes";
    PART_OPTIMIZER = "optimizer", "optimizador";
    PART_ACTIVATIONS = "activations", "activaciones";
    PART_RUNTIME = "runtime", "entorno de ejecución";
    OPTION_PRECISION = "precision", "precisión";
    OPTION_KV_PRECISION = "KV cache precision", "precisión de la caché KV";
    OPTION_OBJECTIVE = "objective", "objetivo";
    OPTION_SPOT = "spot policy", "política de spot";
    OPTION_OFFLOAD = "offload mode", "modo de descarga";
    OPTION_CROSS_ENTROPY = "cross-entropy mode", "modo de entropía cruzada";
    OPTION_TASK = "task", "tarea";
    OPTION_RUNTIME = "runtime", "entorno de ejecución";
    OPTION_METHOD = "fine-tuning method", "método de ajuste fino";
    OPTION_OPTIMIZER = "optimizer", "optimizador";

    // ---- Speed ----
    BOUND_MEMORY = "memory-bound", "limitado por la memoria";
    BOUND_COMPUTE = "compute-bound", "limitado por el cálculo";
    BOUND_INTERCONNECT = "interconnect-bound", "limitado por la interconexión";
    WHY_MEMORY_BOUND = "memory-bound: each step streams the weights and KV cache from GPU memory, so faster memory (HBM) or fewer bytes per weight help, and the arithmetic units sit mostly idle", "limitado por la memoria: cada paso lee los pesos y la caché KV de la memoria de la GPU, así que ayudan una memoria más rápida (HBM) o menos bytes por peso, y las unidades aritméticas pasan casi todo el tiempo ociosas";
    WHY_COMPUTE_BOUND = "compute-bound: tensor-core arithmetic limits it, so a faster GPU or FP8 helps", "limitado por el cálculo: lo limita la aritmética de los tensor cores, así que ayudan una GPU más rápida o FP8";
    WHY_INTERCONNECT_BOUND = "interconnect-bound: GPUs wait on each other, so NVLink, fewer GPUs per replica or more work per step help", "limitado por la interconexión: las GPU se esperan entre sí, así que ayudan NVLink, menos GPU por réplica o más trabajo por paso";
    SPEED_SERVING = "{each} tok/s each, {total} total", "{each} tok/s cada una, {total} en total";
    SPEED_TRAINING = "{rate} tok/s", "{rate} tok/s";
    SPEED_IMAGE = "{seconds} s/image", "{seconds} s/imagen";
    SPEED_CLIP = "{seconds} s/clip", "{seconds} s/clip";
    SPEED_REALTIME = "{factor}× real time", "{factor}× tiempo real";
    FIGURE_DECODE = "Decode per request", "Decodificación por petición";
    FIGURE_OUTPUT = "Output, all requests", "Salida, todas las peticiones";
    FIGURE_PREFILL = "Prefill", "Prefill (lectura del prompt)";
    FIGURE_TTFT = "Time to first token", "Tiempo hasta el primer token";
    FIGURE_TRAINING = "Training", "Entrenamiento";
    FIGURE_DENOISER = "Denoiser steps", "Pasos del denoiser";
    FIGURE_PER_IMAGE = "Per image", "Por imagen";
    FIGURE_PER_CLIP = "Per clip", "Por clip";
    FIGURE_REALTIME = "Real-time factor", "Factor de tiempo real";
    UNIT_TOKENS_PER_S = "tokens/s", "tokens/s";
    UNIT_SECONDS = "s", "s";
    UNIT_PER_SECOND = "per s", "por s";
    UNIT_SECONDS_PER_AUDIO_SECOND = "s per s of audio", "s por s de audio";
    NOTE_FP16_ESTIMATED = "gpus.csv gives no FP16 tensor figure for the {gpu}; estimated as {ratio} × its FP32 {fp32} TFLOP/s", "gpus.csv no da cifra de tensores FP16 para la {gpu}; se estima en {ratio} × sus {fp32} TFLOP/s de FP32";
    NOTE_FP8_ESTIMATED = "gpus.csv gives no FP8 figure for the {gpu}; estimated as 2 × FP16", "gpus.csv no da cifra de FP8 para la {gpu}; se estima en 2 × FP16";
    NOTE_POWER_CLOCK = "the {gpu}'s {watts} W power limit holds about {percent}% of its datasheet clock under sustained tensor load (estimate)", "el límite de potencia de {watts} W de la {gpu} mantiene alrededor del {percent}% de su reloj nominal con carga sostenida de tensores (estimación)";
    NOTE_QUEUE = "{running} of the {offered} requests run at once ({why}); the rest wait in the queue", "{running} de las {offered} peticiones se ejecutan a la vez ({why}); el resto espera en la cola";
    QUEUE_KV_FULL = "the KV cache holds no more", "la caché KV no admite más";
    QUEUE_BATCH_LIMIT = "the runtime's batch limit", "el límite de lote del entorno de ejecución";
    NOTE_DECODE_MEMORY_BOUND = "decode stays memory-bound at {context}-token contexts: each sequence's KV cache read grows as fast as its arithmetic", "la decodificación sigue limitada por la memoria con contextos de {context} tokens: la lectura de la caché KV de cada secuencia crece tan deprisa como su aritmética";
    NOTE_LAUNCHES = "kernel launches take {percent}% of each step at this batch: a larger batch or torch.compile (CUDA graphs) would speed it up", "los lanzamientos de kernels ocupan el {percent}% de cada paso con este lote: un lote mayor o torch.compile (CUDA graphs) lo acelerarían";
    NOTE_DIT_DEPTH = "the denoiser's depth is estimated from its parameters (adaLN-Zero blocks), which overstates the work of dual-stream models", "la profundidad del denoiser se estima a partir de sus parámetros (bloques adaLN-Zero), lo que exagera el trabajo de los modelos de doble flujo";
    NOTE_DECODE_OVERHEAD = "each decoding step pays about {ms} ms of fixed overhead (launches, beam search), {percent}% of the time: batching more windows shares it", "cada paso de decodificación paga unos {ms} ms de coste fijo (lanzamientos, beam search), el {percent}% del tiempo: agrupar más ventanas lo reparte";
    NOTE_FASTER_WHISPER = "assumes faster-whisper (CTranslate2) with beam {beams} and about {tokens} transcript tokens per 30 s window; openai-whisper runs 2–5 times slower", "supone faster-whisper (CTranslate2) con beam {beams} y unos {tokens} tokens de transcripción por ventana de 30 s; openai-whisper es de 2 a 5 veces más lento";

    // ---- Errors ----
    ERROR_UNKNOWN_MODEL = "unknown model \"{id}\": pick one from the list or enter a custom model", "modelo desconocido «{id}»: elige uno de la lista o introduce un modelo personalizado";
    ERROR_UNKNOWN_GPU = "unknown GPU \"{id}\": use a gpu_id from the catalog", "GPU desconocida «{id}»: usa un gpu_id del catálogo";
    ERROR_FIELD = "{field}: {problem}", "{field}: {problem}";
    ERROR_CATALOG = "the bundled catalog could not be read: {detail}", "no se pudo leer el catálogo incluido: {detail}";
    ERROR_UNKNOWN_OPTION = "unknown {what} \"{given}\" (use one of {known})", "valor desconocido para {what}: «{given}» (usa uno de estos: {known})";
    ERROR_NOT_DIFFUSION = "{model} is not a diffusion model; choose an image or video model", "{model} no es un modelo de difusión; elige un modelo de imagen o de vídeo";
    ERROR_NOT_SPEECH = "{model} is not a speech-to-text model; choose Whisper", "{model} no es un modelo de voz a texto; elige Whisper";
    ERROR_NO_SHAPE_KV = "{model} has no transformer shape in the catalog, so its KV cache cannot be sized", "{model} no tiene forma de transformer en el catálogo, así que no se puede dimensionar su caché KV";
    ERROR_NO_SHAPE_TRAINING_MEMORY = "{model} has no transformer shape in the catalog, so its training memory cannot be sized", "{model} no tiene forma de transformer en el catálogo, así que no se puede dimensionar la memoria de su entrenamiento";
    ERROR_NO_SHAPE_SPEED = "{model} has no transformer shape in the catalog, so its speed cannot be estimated", "{model} no tiene forma de transformer en el catálogo, así que no se puede estimar su velocidad";
    ERROR_NO_SHAPE_TRAINING_SPEED = "{model} has no transformer shape in the catalog, so its training speed cannot be estimated", "{model} no tiene forma de transformer en el catálogo, así que no se puede estimar la velocidad de su entrenamiento";
    ERROR_PARALLEL_SPLIT = "tensor × pipeline parallel ({tp} × {pp}) must divide the {gpus} GPUs", "el paralelismo de tensor × pipeline ({tp} × {pp}) debe dividir las {gpus} GPU";
    ERROR_NO_BANDWIDTH = "gpus.csv gives no memory bandwidth for the {gpu}, so its speed cannot be estimated", "gpus.csv no da el ancho de banda de memoria de la {gpu}, así que no se puede estimar su velocidad";
    ERROR_NO_THROUGHPUT = "gpus.csv gives no {precision} throughput for the {gpu}, so its compute speed cannot be estimated", "gpus.csv no da el rendimiento en {precision} de la {gpu}, así que no se puede estimar su velocidad de cálculo";
    ERROR_RESOLUTION = "\"{given}\" is not WIDTHxHEIGHT with sides from {min} to {max} pixels", "«{given}» no es ANCHOxALTO con lados de {min} a {max} píxeles";
    FIT_NEEDS = "needs {need}, has {has}", "necesita {need}, tiene {has}";
    FIT_NEEDS_PER_GPU = "needs {need} per GPU, has {has}", "necesita {need} por GPU, tiene {has}";
    FIT_USABLE = "{size} ({usable} usable)", "{size} ({usable} utilizables)";
    SNAPSHOT_UNREADABLE = "offer data could not be read: {detail}", "no se pudieron leer los datos de ofertas: {detail}";
    SNAPSHOT_DAMAGED = "the file is damaged or incomplete ({detail})", "el archivo está dañado o incompleto ({detail})";
    SNAPSHOT_VERSION = "it has schema version {found} but this page reads version {expected}; reload the page to get matching files", "tiene la versión de esquema {found}, pero esta página lee la versión {expected}; recarga la página para obtener archivos que coincidan";
    DOWNLOAD_FAILED = "offer data could not be downloaded: {detail}", "no se pudieron descargar los datos de ofertas: {detail}";
    DOWNLOAD_NO_WINDOW = "no browser window", "no hay ventana del navegador";
    DOWNLOAD_NETWORK = "the network request failed", "falló la petición de red";
    DOWNLOAD_NOT_HTTP = "the answer was not an HTTP response", "la respuesta no era HTTP";
    DOWNLOAD_STATUS = "the server answered {status}", "el servidor respondió {status}";
    EXPORT_FAILED = "the download could not start: {detail}", "no se pudo iniciar la descarga: {detail}";

    // ---- Links ----
    LINK_OUT_OF_RANGE = "{given} is out of range ({min} to {max})", "{given} está fuera de rango ({min} a {max})";
    LINK_NOT_WHOLE = "\"{given}\" is not a whole number ({min} to {max})", "«{given}» no es un número entero ({min} a {max})";
    LINK_NOT_NUMBER = "\"{given}\" is not a number", "«{given}» no es un número";
    LINK_NOT_NAME = "\"{given}\" is not a name (letters, digits, - _ . and spaces)", "«{given}» no es un nombre (letras, dígitos, - _ . y espacios)";
    LINK_NOT_SWITCH = "\"{given}\" is not 1 or 0", "«{given}» no es 1 ni 0";
    LINK_UNKNOWN_MODEL = "unknown model \"{given}\"", "modelo desconocido «{given}»";
    LINK_WRONG_KIND = "{model} is not a {kind}", "{model} no es un {kind}";
    LINK_UNKNOWN_SETTING = "unknown setting \"{given}\"", "ajuste desconocido «{given}»";
    LINK_UNKNOWN_SETTING_IGNORED = "unknown setting \"{given}\" ignored", "se ignora el ajuste desconocido «{given}»";
    LINK_NEWER = "this link was made by a newer version of whichgpu (v={version}); some settings may be ignored", "este enlace se creó con una versión más reciente de whichgpu (v={version}); puede que se ignoren algunos ajustes";
    LINK_BAD_VERSION = "link version \"{given}\" is not a number", "la versión del enlace «{given}» no es un número";
    LINK_FALLBACK = "{key}: {problem}; using {default}", "{key}: {problem}; se usa {default}";
    LINK_IGNORED = "{key}: {problem}; ignored", "{key}: {problem}; se ignora";
    LINK_BAD_OFFER = "\"{given}\" is not an offer (provider:instance, with :spot for its spot price)", "«{given}» no es una oferta (proveedor:instancia, con :spot para su precio spot)";
    LINK_UNKNOWN_LANGUAGE = "lang: \"{given}\" is not a language this page speaks (en, es)", "lang: «{given}» no es un idioma de esta página (en, es)";

    // ---- Ranking and advice ----
    FILTER_PROVIDER = "outside your filters: provider is not {providers}", "fuera de tus filtros: el proveedor no es {providers}";
    FILTER_REGION = "outside your filters: no region matching \"{region}\"", "fuera de tus filtros: ninguna región coincide con «{region}»";
    FILTER_GPU_COUNT = "outside your filters: {count} GPUs, more than {max}", "fuera de tus filtros: {count} GPU, más de {max}";
    FILTER_VENDOR = "outside your filters: not a {vendor} GPU", "fuera de tus filtros: no es una GPU de {vendor}";
    FILTER_PRICE = "outside your filters: more than {max}/h", "fuera de tus filtros: más de {max}/h";
    NO_ON_DEMAND_PRICE = "no on-demand price in the snapshot", "sin precio bajo demanda en la instantánea";
    NO_SINGLE_NODE = "No single node holds this workload: even {count}× {gpu} ({vram} GB) would need {need} per GPU. Use a smaller precision, fewer concurrent requests, or several nodes.", "Ningún nodo admite esta carga: incluso {count}× {gpu} ({vram} GB) necesitaría {need} por GPU. Usa una precisión menor, menos peticiones simultáneas o varios nodos.";
    SPOT_REFUSED_NO = "spot not allowed (spot=no)", "spot no permitido (spot=no)";
    SPOT_REFUSED_ENDPOINT = "spot capacity can be taken back at any time, which an always-on endpoint must not suffer; set spot=yes to accept it", "la capacidad spot puede retirarse en cualquier momento, algo que un servicio siempre activo no debe sufrir; pon spot=yes para aceptarlo";
    ADVICE_ONE_GPU = "It fits on one GPU ({gpu}): a single fast card is simpler than splitting, and for latency-sensitive serving one card per replica beats tensor parallelism.", "Cabe en una GPU ({gpu}): una sola tarjeta rápida es más sencilla que repartir, y para servir con baja latencia una tarjeta por réplica supera al paralelismo de tensor.";
    ADVICE_NVLINK = "Your model spans at least {count} GPUs: choose NVLink ({nvlink} of the {total} offers that hold it have it); PCIe-only instances spend part of every step on all-reduces.", "Tu modelo ocupa al menos {count} GPU: elige NVLink (lo tienen {nvlink} de las {total} ofertas que lo admiten); las instancias solo con PCIe dedican parte de cada paso a los all-reduce.";
    ADVICE_BILLING = "This job of {job} is billed as {billed} hour(s) on {provider} ({why}): {ratio}× its run time. Per-second or per-minute billing protects short jobs.", "Este trabajo de {job} se factura como {billed} hora(s) en {provider} ({why}): {ratio}× su duración. La facturación por segundos o por minutos protege los trabajos cortos.";
    BILLING_MINIMUM = "its minimum charge", "su cargo mínimo";
    ADVICE_SPOT_LEFT_OUT = "Spot prices are left out: {reason}.", "Se dejan fuera los precios spot: {reason}.";
    ADVICE_SPOT_SAVES = "Spot saves {percent}% on the whole job and is {why}.", "Spot ahorra un {percent}% en el trabajo completo y es {why}.";
    SPOT_SAFE_CHECKPOINTS = "safe here because you checkpoint every {minutes} minutes (an interruption costs a restart and half an interval)", "seguro aquí porque guardas un punto de control cada {minutes} minutos (una interrupción cuesta un reinicio y medio intervalo)";
    SPOT_ACCEPTED_SERVING = "accepted because you allowed spot for serving", "aceptable porque permitiste spot para servir";
    SPOT_SAFE_BATCH = "safe here because batch work resumes where it stopped", "seguro aquí porque el trabajo por lotes se reanuda donde se detuvo";
    ADVICE_MEMORY_BOUND = "Decoding is memory-bound: every token streams the weights and the KV cache, so HBM bandwidth or FP8/INT8 weights and KV cache help more than arithmetic.", "La decodificación está limitada por la memoria: cada token lee los pesos y la caché KV, así que el ancho de banda HBM o pesos y caché KV en FP8/INT8 ayudan más que la aritmética.";
    ADVICE_INTERCONNECT = "GPUs wait on each other: NVLink, fewer GPUs per replica, or more work per step would help.", "Las GPU se esperan entre sí: ayudarían NVLink, menos GPU por réplica o más trabajo por paso.";
    ADVICE_UNKNOWN_EXTRAS = "Storage or egress prices are unknown for {count} of the top 20 offers: their totals count GPU time and the known charges only.", "Se desconocen los precios de almacenamiento o de tráfico de salida de {count} de las 20 mejores ofertas: sus totales solo cuentan el tiempo de GPU y los cargos conocidos.";

    // ---- A row's breakdown ----
    ROW_CAPACITY = "Capacity", "Capacidad";
    CAPACITY_SPOT = "spot (can be interrupted)", "spot (puede interrumpirse)";
    CAPACITY_ON_DEMAND = "on-demand", "bajo demanda";
    ROW_PRICE = "Price", "Precio";
    PRICE_FOR = "{price}/h for {count}× {gpu}", "{price}/h por {count}× {gpu}";
    ROW_BILLING = "Billing", "Facturación";
    BILLING_STEP = "per {step} s", "por tramos de {step} s";
    BILLING_STEP_MINIMUM = "per {step} s, at least {minimum} s", "por tramos de {step} s, mínimo {minimum} s";
    BILLING_UNKNOWN = "not known: billed as used", "desconocida: se factura lo usado";
    ROW_INSTANCES = "Instances", "Instancias";
    INSTANCES_FOR_LOAD = "{count} for the stated load", "{count} para la carga indicada";
    ROW_JOB_TIME = "Job time", "Duración del trabajo";
    JOB_TIME_WITH_START = "{hours} h (start-up included)", "{hours} h (arranque incluido)";
    ROW_BILLED_TIME = "Billed time", "Tiempo facturado";
    BILLED_TIME = "{hours} h per instance, {gpu_hours} GPU-hours", "{hours} h por instancia, {gpu_hours} horas de GPU";
    ROW_GPU_TIME = "GPU time", "Tiempo de GPU";
    ROW_STORAGE = "Storage", "Almacenamiento";
    ROW_EGRESS = "Egress", "Tráfico de salida";
    PRICE_UNKNOWN = "unknown (the provider's price is not in the data)", "desconocido (el precio del proveedor no está en los datos)";
    ROW_JOB_COST = "Job cost", "Coste del trabajo";
    ROW_MONTH = "A month of runs", "Un mes de ejecuciones";
    ROW_PER_UNIT = "Per unit", "Por unidad";
    COST_PER_UNIT = "{cost} per {unit}", "{cost} por {unit}";
    ROW_MFU = "MFU", "MFU";
    ROW_LAYOUT = "Layout", "Distribución";
    LAYOUT = "{replicas} replica(s) of {group} GPU(s)", "{replicas} réplica(s) de {group} GPU";
    ROW_RUNNING = "Requests running at once", "Peticiones en curso a la vez";
    ROW_BOUND = "Bound", "Límite";
    ROW_NOTE = "Note", "Nota";
    FIGURE_VALUE = "{value} {unit}", "{value} {unit}";
    PERCENT = "{percent}%", "{percent} %";

    // ---- The offers table ----
    CAPTION_NONE = "None of the {total} offers holds this workload.", "Ninguna de las {total} ofertas admite esta carga.";
    CAPTION_NONE_WITH_NOTE = "None of the {total} offers holds this workload. {note}", "Ninguna de las {total} ofertas admite esta carga. {note}";
    CAPTION = "{fitting} of {total} offers hold this workload, {by}:", "{fitting} de {total} ofertas admiten esta carga; orden: {by}:";
    COLUMN_PROVIDER = "Provider", "Proveedor";
    COLUMN_INSTANCE = "Instance", "Instancia";
    COLUMN_GPUS = "GPUs", "GPU";
    COLUMN_VRAM = "VRAM", "VRAM";
    COLUMN_REGIONS = "Regions", "Regiones";
    COLUMN_PRICE = "$/h", "$/h";
    COLUMN_SPEED = "Speed (estimate)", "Velocidad (estimación)";
    COLUMN_JOB_TIME = "Job time", "Duración";
    COLUMN_JOB_COST = "Job cost", "Coste";
    COLUMN_PER_UNIT = "Per unit", "Por unidad";
    COLUMN_NOTES = "Notes", "Notas";
    TABLE_REGION = "Ranked offers (scrolls sideways)", "Ofertas ordenadas (se desplaza en horizontal)";
    EXPAND_ROW = "Cost breakdown and reasons", "Desglose del coste y motivos";
    SPOT_TAG = "spot", "spot";
    BILLED = "billed {time}", "facturado: {time}";
    UNIT_COST = "{cost} / {unit}", "{cost} / {unit}";
    GPU_COUNT = "{count}× {gpu}", "{count}× {gpu}";
    REGIONS_MORE = "{first} +{more} more", "{first} y {more} más";
    PAGE_ROWS = "Rows {first}–{last} of {total}", "Filas {first}–{last} de {total}";
    PAGER_LABEL = "Pages of ranked offers", "Páginas de ofertas ordenadas";
    PAGE_PREVIOUS = "Previous rows", "Filas anteriores";
    PAGE_NEXT = "Next rows", "Filas siguientes";
    PAGE_SIZE = "Rows per page", "Filas por página";
    DOWNLOAD_CSV = "Download CSV", "Descargar CSV";
    DOWNLOAD_JSON = "Download JSON", "Descargar JSON";
    EXCLUDED_SUMMARY = "{count} offers left out, and why", "{count} ofertas descartadas, y por qué";
    EXCLUDED_GROUP = "{count} × ", "{count} × ";
    EXCLUDED_EXAMPLE = "{provider} {instance} ({count}× {gpu})", "{provider} {instance} ({count}× {gpu})";
    EXAMPLES_AND_MORE = "{examples} and {more} more", "{examples} y {more} más";
    SPEED_NOTE = "Speeds are estimates from each GPU's datasheet bandwidth and throughput. The first offer is {bound}.", "Las velocidades son estimaciones a partir del ancho de banda y el rendimiento de la ficha técnica de cada GPU. La primera oferta está {bound}.";

    // ---- The chart ----
    CHART_COST_PER_TOKEN = "$ per 1M output tokens", "$ por 1 M de tokens de salida";
    CHART_TIME_PER_TOKEN = "seconds per token for each user (lower is faster)", "segundos por token para cada usuario (menos es más rápido)";
    CHART_COST_JOB = "whole job, $", "trabajo completo, $";
    CHART_TIME_JOB = "job hours (lower is faster)", "horas del trabajo (menos es más rápido)";
    CHART_POINT = "{provider} {instance}: {count}× {gpu}{spot}, {cost} and {time}", "{provider} {instance}: {count}× {gpu}{spot}, {cost} y {time}";
    CHART_SPOT = " (spot)", " (spot)";
    CHART_LABEL = "Cost against speed of the best offers; the line joins those nothing beats on both", "Coste frente a velocidad de las mejores ofertas; la línea une las que ninguna otra supera en ambas cosas";
    CHART_CAPTION = "Each dot is an offer; the line joins the best trade-offs (nothing else is both cheaper and faster). Click a dot, or reach it with Tab and the arrow keys and press Enter, to find it in the table.", "Cada punto es una oferta; la línea une los mejores equilibrios (ninguna otra es a la vez más barata y más rápida). Haz clic en un punto, o llega a él con Tab y las flechas y pulsa Intro, para verlo en la tabla.";

    // ---- The memory bar ----
    MEMORY_BAR_LABEL = "{need} per GPU against card sizes of 24, 48, 80, 141 and 192 GB", "{need} por GPU frente a tarjetas de 24, 48, 80, 141 y 192 GB";
    PART_SIZE = "{part}: {size}", "{part}: {size}";

    // ---- Where the prices come from ----
    PRICES_AS_OF = "Prices as of ", "Precios a fecha de ";
    SNAPSHOT_COUNTS = " ({offers} offers, {providers} providers). ", " ({offers} ofertas, {providers} proveedores). ";
    ESTIMATES_NOTICE = "Prices change often; all figures are estimates.", "Los precios cambian a menudo; todas las cifras son estimaciones.";
    SOURCES_SUMMARY = "Sources and dates per provider", "Fuentes y fechas por proveedor";
    COLUMN_AS_OF = "Prices as of", "Precios a fecha de";
    COLUMN_SOURCE = "Source", "Fuente";

    // ---- The form ----
    START_FROM = "Start from", "Empezar con";
    A_PRESET = "A preset…", "Un caso típico…";
    PRESET_CHAT_70B = "Chat with Llama 3.1 70B (32 users)", "Chat con Llama 3.1 70B (32 usuarios)";
    PRESET_BUDGET_8B = "A quantized 8B on a budget", "Un 8B cuantizado con poco presupuesto";
    PRESET_QLORA_13B = "QLoRA of a 13B", "QLoRA de un 13B";
    PRESET_FULL_FINETUNE_8B = "Full fine-tune of an 8B", "Ajuste fino completo de un 8B";
    PRESET_SDXL_BATCH = "SDXL batch of 10,000 images", "Lote SDXL de 10.000 imágenes";
    PRESET_WHISPER = "Whisper transcription of 100 hours", "Transcripción con Whisper de 100 horas";
    FIELD_TASK = "Task", "Tarea";
    FIELD_MODEL = "Model", "Modelo";
    CUSTOM_MODEL = "Custom model…", "Modelo personalizado…";
    FIELD_PARAMS = "Parameters", "Parámetros";
    FIELD_LAYERS = "Layers", "Capas";
    FIELD_HIDDEN = "Hidden size", "Dimensión oculta";
    FIELD_HEADS = "Attention heads", "Cabezas de atención";
    FIELD_KV_HEADS = "KV heads", "Cabezas KV";
    FIELD_WEIGHT_PRECISION = "Weight precision", "Precisión de los pesos";
    FIELD_KV_CACHE = "KV cache", "Caché KV";
    FIELD_RUNTIME = "Runtime", "Entorno de ejecución";
    FIELD_PROMPT_TOKENS = "Prompt tokens", "Tokens de entrada";
    FIELD_OUTPUT_TOKENS = "Output tokens", "Tokens de salida";
    FIELD_CONCURRENCY = "Concurrent requests", "Peticiones simultáneas";
    FIELD_RESOLUTION = "Resolution (width×height)", "Resolución (ancho×alto)";
    FIELD_FRAMES = "Frames per clip", "Fotogramas por clip";
    FIELD_STEPS = "Denoising steps", "Pasos de eliminación de ruido";
    FIELD_BATCH = "Batch per GPU", "Lote por GPU";
    FIELD_CLIPS = "Clips to make", "Clips que generar";
    FIELD_IMAGES = "Images to make", "Imágenes que generar";
    FIELD_OFFLOAD = "CPU offload", "Descarga a la CPU";
    FIELD_WINDOWS = "30-second windows per batch", "Ventanas de 30 segundos por lote";
    FIELD_AUDIO_HOURS = "Hours of audio", "Horas de audio";
    FIELD_METHOD = "Method", "Método";
    FIELD_LORA_RANK = "LoRA rank", "Rango de LoRA";
    FIELD_OPTIMIZER = "Optimizer", "Optimizador";
    FIELD_CROSS_ENTROPY = "Cross-entropy", "Entropía cruzada";
    FIELD_TOKENS = "Dataset tokens", "Tokens del conjunto de datos";
    FIELD_EPOCHS = "Epochs", "Épocas";
    FIELD_SEQ_LEN = "Sequence length", "Longitud de secuencia";
    FIELD_MICRO_BATCH = "Micro-batch per GPU", "Microlote por GPU";
    FIELD_GPUS = "GPUs", "GPU";
    FIELD_ZERO = "ZeRO / FSDP stage (0–3)", "Etapa de ZeRO / FSDP (0–3)";
    FIELD_TENSOR_PARALLEL = "Tensor parallel", "Paralelismo de tensor";
    FIELD_PIPELINE = "Pipeline stages", "Etapas de pipeline";
    FIELD_CHECKPOINTING = "Activation checkpointing", "Recomputación de activaciones (checkpointing)";
    FIELD_CHECKPOINT_EVERY = "Minutes between checkpoints", "Minutos entre puntos de control";
    RENTING = "Renting", "Alquiler";
    FIELD_OBJECTIVE = "Rank by", "Ordenar por";
    OBJECTIVE_TASK_DEFAULT = "The task's default", "El de la tarea";
    FIELD_SPOT = "Spot capacity", "Capacidad spot";
    FIELD_UPTIME = "Hours up per day", "Horas activas al día";
    FIELD_REQUESTS_PER_DAY = "Requests per day (0: not stated)", "Peticiones al día (0: sin indicar)";
    FIELD_RUNS = "Runs per month", "Ejecuciones al mes";
    FIELD_MAX_PRICE = "Most $/h", "Máximo $/h";
    FIELD_MAX_GPUS = "Most GPUs per instance", "Máximo de GPU por instancia";
    FIELD_REGION = "Region contains", "La región contiene";
    FIELD_PROVIDERS = "Providers (ids, comma-separated)", "Proveedores (ids separados por comas)";
    FIELD_VENDOR = "GPU vendor", "Fabricante de la GPU";
    ANY = "Any", "Cualquiera";

    // ---- Your GPU (issue 9) ----
    YOUR_GPU = "Your GPU", "Tu GPU";
    YOUR_GPU_PRIVACY = "Read in this page from what your browser already exposes; nothing is sent anywhere, and the speed test runs only when you press it.", "Se lee en esta página de lo que tu navegador ya expone; no se envía nada, y la prueba de velocidad solo se ejecuta si la pulsas.";
    PROBE_RUNNING = "Asking the browser about your GPU…", "Preguntando al navegador por tu GPU…";
    PROBE_NO_WEBGPU = "This browser offers no WebGPU here (a browser without WebGPU, or a page not served over https), so your GPU cannot be read: pick it below.", "Este navegador no ofrece WebGPU aquí (un navegador sin WebGPU, o una página no servida por https), así que no se puede leer tu GPU: elígela abajo.";
    PROBE_NO_ADAPTER = "No WebGPU adapter: the browser has WebGPU but offered no GPU (blocked, or none usable). Pick your GPU below.", "Sin adaptador WebGPU: el navegador tiene WebGPU pero no ofreció ninguna GPU (bloqueada, o ninguna utilizable). Elige tu GPU abajo.";
    PROBE_FAILED = "The browser would not describe its GPU ({detail}): pick yours below.", "El navegador no quiso describir su GPU ({detail}): elige la tuya abajo.";
    PROBE_SOFTWARE = "Software renderer, not a GPU: the browser reports {name}, which draws on the CPU. Pick your GPU below if you have one.", "Renderizador por software, no una GPU: el navegador indica {name}, que dibuja con la CPU. Elige tu GPU abajo si tienes una.";
    PROBE_RENDERER = "WebGL names it {name}.", "WebGL la llama {name}.";
    PROBE_RENDERER_SOFTWARE = "WebGL draws with a software renderer, not a GPU ({name}).", "WebGL dibuja con un renderizador por software, no con una GPU ({name}).";
    PROBE_EXACT = "Your browser reports {reported}: the {gpu} of our catalog.", "Tu navegador indica {reported}: la {gpu} de nuestro catálogo.";
    PROBE_CANDIDATES = "Your browser reports {reported}, which could be {gpus}. Confirm yours below.", "Tu navegador indica {reported}, que podría ser {gpus}. Confirma la tuya abajo.";
    PROBE_INTEGRATED = "Your browser reports {reported}, an integrated GPU: it shares the system's memory with the CPU, and our catalog has no integrated GPUs. Measure its bandwidth, or pick the closest card below.", "Tu navegador indica {reported}, una GPU integrada: comparte la memoria del sistema con la CPU, y nuestro catálogo no tiene GPU integradas. Mide su ancho de banda o elige la tarjeta más parecida abajo.";
    PROBE_UNKNOWN = "Your browser reports {reported}, which matches no GPU of our catalog: pick the closest below.", "Tu navegador indica {reported}, que no coincide con ninguna GPU de nuestro catálogo: elige la más parecida abajo.";
    PICK_GPU = "GPU to compare with renting", "GPU que comparar con alquilar";
    PICK_NONE = "None", "Ninguna";
    PICK_DETECTED = "(detected)", "(detectada)";
    UNIFIED_MEMORY = "Unified memory: the {memory} are shared with the CPU and the system, and the catalog lists the largest configuration of this chip.", "Memoria unificada: los {memory} se comparten con la CPU y el sistema, y el catálogo da la mayor configuración de este chip.";
    BENCH_BUTTON = "Measure its memory bandwidth (about 2 s)", "Medir su ancho de banda de memoria (unos 2 s)";
    BENCH_RUNNING = "Measuring…", "Midiendo…";
    BENCH_MEASURED = "Measured {measured} GB/s reading {size} in {ms} ms.", "Medido: {measured} GB/s leyendo {size} en {ms} ms.";
    BENCH_DATASHEET = "The datasheet says {datasheet} GB/s.", "La ficha técnica dice {datasheet} GB/s.";
    BENCH_USED = "The estimate uses the measurement.", "La estimación usa la medida.";
    BENCH_NOT_USED = "A software renderer's figure: the estimate keeps the datasheet.", "Es la cifra de un renderizador por software: la estimación mantiene la ficha técnica.";
    BENCH_FAILED = "The measurement failed: {detail}.", "La medida falló: {detail}.";
    VERDICT_NO_FIT = "Needs {need} on one GPU; your {gpu} has {has}.", "Necesita {need} en una GPU; tu {gpu} tiene {has}.";
    VERDICT_TRY_4BIT = "4-bit weights would fit it.", "Con pesos de 4 bits cabría.";
    VERDICT_RENT_INSTEAD = "Or rent {offer} at {price}/h: {cost} for the job.", "O alquila {offer} a {price}/h: {cost} por el trabajo.";
    VERDICT_RUNS = "Runs on your {gpu} at about {speed}.", "Funciona en tu {gpu} a unos {speed}.";
    VERDICT_RENT_FASTER = "Renting {offer} is {factor}× faster at {price}/h: {cost} for the job, against {local} of electricity here.", "Alquilar {offer} es {factor}× más rápido a {price}/h: {cost} por el trabajo, frente a {local} de electricidad aquí.";
    VERDICT_LOCAL_FASTER = "Your card is {factor}× faster than the top offer ({offer} at {price}/h): renting buys scale, not speed.", "Tu tarjeta es {factor}× más rápida que la mejor oferta ({offer} a {price}/h): alquilar da escala, no velocidad.";
    VERDICT_SAME_SPEED = "The top offer ({offer} at {price}/h) runs at about the same speed: {cost} for the job, against {local} of electricity here.", "La mejor oferta ({offer} a {price}/h) va a una velocidad parecida: {cost} por el trabajo, frente a {local} de electricidad aquí.";
    VERDICT_NO_SPEED = "It fits your {gpu}, but its speed cannot be estimated: {reason}.", "Cabe en tu {gpu}, pero no se puede estimar su velocidad: {reason}.";
    VERDICT_LOAD_SHARE = "One card serves about {percent}% of the stated requests.", "Una tarjeta atiende alrededor del {percent}% de las peticiones indicadas.";
    ELECTRICITY = "{price}/h of electricity ({watts} W at {rate}/kWh)", "{price}/h de electricidad ({watts} W a {rate}/kWh)";
    ELECTRICITY_UNKNOWN = "no power figure for this GPU: electricity not counted", "sin dato de consumo para esta GPU: no se cuenta la electricidad";
    SEGMENT_CONSUMER = "Desktop cards", "Tarjetas de escritorio";
    SEGMENT_LAPTOP = "Laptops", "Portátiles";
    SEGMENT_APPLE = "Apple M-series", "Apple serie M";
    SEGMENT_WORKSTATION = "Workstation cards", "Tarjetas de estación de trabajo";
    SEGMENT_DATACENTER = "Datacenter cards", "Tarjetas de centro de datos";
    LOCAL_FITS = "fits", "cabe";
    LOCAL_DOES_NOT_FIT = "doesn't fit", "no cabe";
}
